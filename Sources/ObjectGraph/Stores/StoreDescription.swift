import Foundation

/// Which store a container uses, as a value: pick it per environment from configuration.
///
/// For example:
/// ```swift
/// let description: StoreDescription = isTesting ? .inMemory : .discard
/// let container = try PersistentContainer(model: model, storeDescription: description)
/// ```
///
/// Core Data: `NSPersistentStoreDescription`.
public struct StoreDescription: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of store a description can name.
    public enum Kind: String, Sendable, Hashable {
        /// A fresh ``InMemoryStore``.
        case inMemory
        /// A ``DiscardStore``: the `/dev/null` store.
        case discard
    }

    /// The kind of store.
    public var kind: Kind
    /// The location the description was created from, if any.
    public var url: URL?

    /// A fresh, empty in-memory store for each container.
    public static let inMemory = StoreDescription(kind: .inMemory, url: nil)

    /// The `/dev/null` store: saves succeed and nothing is kept.
    public static let discard = StoreDescription(kind: .discard, url: nil)

    private init(kind: Kind, url: URL?) {
        self.kind = kind
        self.url = url
    }

    /// Picks the store from a URL, as Core Data users write it: `/dev/null` selects the discard
    /// store.
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat` for any other URL: file stores are not
    ///   part of this version of ObjectGraph yet.
    public init(url: URL) throws {
        guard url.isFileURL, url.standardizedFileURL.path == "/dev/null" else {
            throw PersistenceError.unsupportedStoreURL(url)
        }
        self.init(kind: .discard, url: url)
    }

    /// Creates the store the description names.
    public func makeStore() -> any PersistentStore {
        switch kind {
        case .inMemory: InMemoryStore()
        case .discard: DiscardStore()
        }
    }

    public var description: String {
        url.map { "\(kind) (\($0.path))" } ?? kind.rawValue
    }
}
