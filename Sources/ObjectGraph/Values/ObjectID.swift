import Foundation

/// The identity of a managed object: its entity and a key unique within that entity.
///
/// An object's ID is permanent from the moment it is inserted, is the same in every context and
/// after every relaunch, and is `Sendable`: pass IDs, not objects, between isolation domains.
///
/// For example:
/// ```swift
/// let id = fruit.objectID
/// let again = try otherContext.existingObject(with: id)
/// ```
///
/// Core Data: `NSManagedObjectID`.
public struct ObjectID: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The name of the object's entity.
    public let entityName: String
    /// The object's key, unique within its entity and never reused.
    public let key: Int64

    /// Creates the ID of the object with `key` in entity `entityName`.
    public init(entityName: String, key: Int64) {
        self.entityName = entityName
        self.key = key
    }

    /// Parses an ID from its ``uriRepresentation``; `nil` if `uri` is not an object URI.
    public init?(uriRepresentation uri: URL) {
        guard uri.scheme == Self.uriScheme else { return nil }
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[1].first == "p", let key = Int64(parts[1].dropFirst()), key > 0 else {
            return nil
        }
        self.init(entityName: String(parts[0]).removingPercentEncoding ?? String(parts[0]), key: key)
    }

    /// A URI naming this object, such as `x-objectgraph:///Fruit/p12`, for storing outside the store.
    ///
    /// Core Data: `NSManagedObjectID.uriRepresentation()`.
    public var uriRepresentation: URL {
        let name = entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName
        return URL(string: "\(Self.uriScheme):///\(name)/p\(key)")!
    }

    /// A readable description, for logs and debugging.
    public var description: String { "\(entityName)/\(key)" }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        // Keys are unique within an entity; hashing the key alone keeps hashing cheap, and equality
        // still compares the entity.
        hasher.combine(key)
    }

    /// Orders IDs by entity name, then by key (insertion order within an entity).
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.entityName == rhs.entityName ? lhs.key < rhs.key : lhs.entityName < rhs.entityName
    }

    static let uriScheme = "x-objectgraph"
}
