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
        /// A ``JSONFileStore``.
        case jsonFile
        /// A ``BinaryFileStore``.
        case binaryFile
        /// A ``SQLiteStore``.
        case sqliteFile
        /// A store that another module makes (such as ObjectGraphPostgres's `.postgres(url:)`):
        /// see ``StoreDescription/custom(_:identity:url:makeStore:)``.
        case custom
    }

    /// The kind of store.
    public var kind: Kind
    /// The location the description was created from, if any.
    public var url: URL?
    /// Whether the store is opened read-only: it loads, never writes its file or takes its
    /// lock, and every save throws `PersistenceError.Code.readOnlyStore`. `false` by default.
    ///
    /// For example:
    /// ```swift
    /// var description = StoreDescription.binaryFile(bundledCatalogURL)
    /// description.isReadOnly = true
    /// ```
    ///
    /// Core Data: `NSPersistentStoreDescription.isReadOnly`.
    public var isReadOnly = false
    /// What the store does when it was written with another model: migrate automatically (the
    /// default), refuse, or erase; whether to keep a backup; progress reports.
    ///
    /// For example:
    /// ```swift
    /// var description = StoreDescription.jsonFile(url)
    /// description.migration = .disabled
    /// ```
    ///
    /// Core Data: `shouldMigrateStoreAutomatically` and `shouldInferMappingModelAutomatically`.
    public var migration = MigrationOptions.automatic
    /// What makes the store of a ``Kind/custom`` description.
    var factory: StoreFactory?

    /// A fresh, empty in-memory store for each container.
    public static let inMemory = StoreDescription(kind: .inMemory, url: nil)

    /// The `/dev/null` store: saves succeed and nothing is kept.
    public static let discard = StoreDescription(kind: .discard, url: nil)

    private init(kind: Kind, url: URL?) {
        self.kind = kind
        self.url = url
    }

    /// A JSON file store at `url`.
    public static func jsonFile(_ url: URL) -> StoreDescription { StoreDescription(kind: .jsonFile, url: url) }

    /// A binary file store at `url`.
    public static func binaryFile(_ url: URL) -> StoreDescription { StoreDescription(kind: .binaryFile, url: url) }

    /// A SQLite store at `url` (`synchronous=FULL`; use ``SQLiteStore`` directly for other
    /// options).
    ///
    /// Core Data: `NSSQLiteStoreType`.
    public static func sqliteFile(_ url: URL) -> StoreDescription { StoreDescription(kind: .sqliteFile, url: url) }

    /// The file extensions that select the SQLite store in ``init(url:)``.
    static let sqliteExtensions: Set<String> = ["sqlite", "sqlite3", "db"]

    /// Picks the store from a URL, as Core Data users write it: `/dev/null` selects the discard
    /// store, a `.json` file the JSON store, a `.sqlite`, `.sqlite3` or `.db` file the SQLite
    /// store, and any other file the binary store.
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat` for a URL that is not a file URL.
    public init(url: URL) throws {
        guard url.isFileURL else { throw PersistenceError.unsupportedStoreURL(url) }
        if url.standardizedFileURL.path == "/dev/null" {
            self.init(kind: .discard, url: url)
        } else if url.pathExtension.lowercased() == "json" {
            self.init(kind: .jsonFile, url: url)
        } else if Self.sqliteExtensions.contains(url.pathExtension.lowercased()) {
            self.init(kind: .sqliteFile, url: url)
        } else {
            self.init(kind: .binaryFile, url: url)
        }
    }

    /// Creates the store the description names.
    public func makeStore() -> any PersistentStore {
        if let factory { return factory.make(self) }
        return switch kind {
        case .inMemory: InMemoryStore(isReadOnly: isReadOnly, migration: migration)
        case .discard: DiscardStore(isReadOnly: isReadOnly)
        case .jsonFile: JSONFileStore(url: url!, isReadOnly: isReadOnly, migration: migration)
        case .binaryFile: BinaryFileStore(url: url!, isReadOnly: isReadOnly, migration: migration)
        case .sqliteFile: SQLiteStore(url: url!, isReadOnly: isReadOnly, migration: migration)
        case .custom: UnavailableStore(error: .missingStoreFactory(description))
        }
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let base = factory?.name ?? url.map { "\(kind) (\($0.path))" } ?? kind.rawValue
        return isReadOnly ? base + ", read-only" : base
    }
}
