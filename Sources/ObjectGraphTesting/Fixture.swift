import Foundation
import ObjectGraph

/// Objects to seed a test container with, written as JSON.
///
/// The document maps entity names to arrays of objects; each object maps keys to values in the
/// types `setValue(_:forKey:)` accepts (strings for dates in ISO 8601, UUIDs and URLs; numbers;
/// booleans; `null`). An object may carry `"$id"`, a name other objects use to refer to it:
/// a relationship's value is such a name, or an array of them.
///
/// ```json
/// {"Basket": [{"$id": "kitchen", "label": "Kitchen"}],
///  "Fruit":  [{"name": "apple", "price": 120, "basket": "kitchen"}]}
/// ```
public struct Fixture {
    /// A fixture that cannot be inserted: the message says where and why.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    private let entities: [(name: String, objects: [[String: Any]])]

    /// Reads a fixture file.
    public init(contentsOf url: URL) throws {
        try self.init(data: Data(contentsOf: url))
    }

    /// Reads a fixture document.
    ///
    /// - Throws: `Fixture.Problem` when the data is not JSON, or not an object mapping entity names
    ///   to arrays of objects.
    public init(data: Data) throws {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            // Foundation's error is an untyped NSError whose text differs by platform.
            throw Problem(
                description: "A fixture must be JSON; this is not (\(data.count) bytes): \(Self.reason(error))")
        }
        guard let root = parsed as? [String: Any]
        else { throw Problem(description: "A fixture is a JSON object mapping entity names to arrays of objects.") }
        var entities: [(String, [[String: Any]])] = []
        for name in root.keys.sorted() {
            guard let objects = root[name] as? [[String: Any]] else {
                throw Problem(description: "Fixture entry '\(name)' must be an array of objects.")
            }
            entities.append((name, objects))
        }
        self.entities = entities
    }

    /// Foundation's explanation of a JSON error, at most 200 characters of it.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        let text = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        return text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }

    /// Inserts the fixture's objects into `context` (without saving).
    public func insert(into context: ManagedContext) throws {
        var named: [String: ManagedObject] = [:]
        var links: [(ManagedObject, String, Any, String)] = []
        for (name, objects) in entities {
            guard let entity = context.model.entity(named: name) else {
                throw Problem(description: "Fixture entity '\(name)' is not in the model.")
            }
            let relationships = Set(entity.relationships.map(\.name))
            for (index, fields) in objects.enumerated() {
                let object = entity.managedObjectClass.init(entity: entity, insertInto: context)
                let place = "\(name)[\(index)]"
                for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                    if key == "$id" {
                        guard let id = value as? String, named.updateValue(object, forKey: id) == nil else {
                            throw Problem(description: "\(place): \"$id\" must be a unique string.")
                        }
                    } else if relationships.contains(key) {
                        links.append((object, key, value, place))
                    } else {
                        try object.setValue(Self.attributeValue(value, for: key, of: entity, at: place), forKey: key)
                    }
                }
            }
        }
        for (object, key, value, place) in links {
            func resolve(_ name: Any) throws -> ManagedObject {
                guard let name = name as? String, let target = named[name] else {
                    throw Problem(description: "\(place).\(key): no object has \"$id\" \(name).")
                }
                return target
            }
            switch value {
            case is NSNull: try object.setValue(nil, forKey: key)
            case let names as [Any]: try object.setValue(try names.map(resolve), forKey: key)
            default: try object.setValue(try resolve(value), forKey: key)
            }
        }
    }

    private static func attributeValue(_ value: Any, for key: String, of entity: EntityDescription, at place: String)
        throws -> Any?
    {
        if value is NSNull { return nil }
        guard let attribute = entity.attributesByName[key] else {
            throw Problem(description: "\(place): entity '\(entity.name)' has no attribute or relationship '\(key)'.")
        }
        switch (attribute.type, value) {
        case (.date, let text as String):
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw Problem(description: "\(place).\(key): \"\(text)\" is not an ISO 8601 date.")
            }
            return date
        case (.uuid, let text as String): return UUID(uuidString: text) ?? text
        case (.uri, let text as String): return URL(string: text) ?? text
        case (.decimal, let text as String): return Decimal(string: text) ?? text
        case (.binary, let text as String): return Data(base64Encoded: text) ?? text
        case (.boolean, let flag as Bool): return flag
        case (.double, let number as Int), (.float, let number as Int), (.decimal, let number as Int):
            return Double(number)
        case (_, let number as Int): return number
        case (_, let number as Double): return number
        case (.boolean, let number as NSNumber): return number.boolValue
        case (.integer16, let number as NSNumber), (.integer32, let number as NSNumber),
            (.integer64, let number as NSNumber):
            return number.int64Value
        case (.float, let number as NSNumber), (.double, let number as NSNumber), (.decimal, let number as NSNumber):
            return number.doubleValue
        default: return value
        }
    }
}
