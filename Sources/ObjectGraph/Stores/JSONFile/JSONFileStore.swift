import Foundation

/// A store that keeps its data in one human-readable JSON document.
///
/// Every save rewrites the document atomically (a temporary file, `fsync`, `rename`, directory
/// `fsync`), so a crash leaves the previous or the new contents. The document has a stable order
/// (entities by name, objects by key, properties in model order): two saves of the same data are
/// byte-identical, and the file diffs cleanly in version control. It carries the model's schema;
/// opening it with a different model is a `modelMismatch` error. Symlinked paths are resolved to
/// their target, an existing file keeps its permissions, and a missing file is created empty.
///
/// For example:
/// ```swift
/// let store = JSONFileStore(url: URL(fileURLWithPath: "fruits.json"))
/// let container = try PersistentContainer(model: model, store: store)
/// ```
///
/// Core Data: an XML store, without the need to load it all for each save.
public final class JSONFileStore: PersistentStore {
    /// The store file's location, as given.
    public let url: URL
    /// Whether the document is indented, one object per line (the default), or minimal.
    public let prettyPrinted: Bool
    /// Whether the store was opened read-only: ``load(model:)`` reads the file without taking its
    /// lock (other containers, read-only or not, may open it too) and never creates or changes
    /// it, and every ``save(_:)`` throws `PersistenceError.Code.readOnlyStore`.
    ///
    /// Core Data: `NSReadOnlyPersistentStoreOption`.
    public let isReadOnly: Bool
    /// What ``load(model:)`` does when the file was written with another model: migrate (the
    /// default), refuse, or erase.
    public let migration: MigrationOptions
    let fileSystem: any FileSystem
    private let file = Locked<StoreFile?>(nil)

    /// A store at `url`, pretty-printed unless `prettyPrinted` is false; read-only if
    /// `isReadOnly`; migrated on open as `migration` says.
    public convenience init(
        url: URL, prettyPrinted: Bool = true, isReadOnly: Bool = false, migration: MigrationOptions = .automatic
    ) {
        self.init(
            url: url, prettyPrinted: prettyPrinted, isReadOnly: isReadOnly, migration: migration,
            fileSystem: POSIXFileSystem())
    }

    init(
        url: URL, prettyPrinted: Bool, isReadOnly: Bool = false, migration: MigrationOptions = .automatic,
        fileSystem: any FileSystem
    ) {
        self.url = url
        self.prettyPrinted = prettyPrinted
        self.isReadOnly = isReadOnly
        self.migration = migration
        self.fileSystem = fileSystem
    }

    /// Opens the store for one container and returns everything it holds.
    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        try load(model: model, migration: migration)
    }

    func load(model: ManagedObjectModel, migration: MigrationOptions) throws -> StoreSnapshot {
        try file.withLock { current in
            guard current == nil else { throw PersistenceError.storeLocked(url) }
            var file = try StoreFile(url: url, fileSystem: fileSystem)
            if isReadOnly {
                guard file.exists else { throw PersistenceError.readOnlyStoreMissing(url) }
                let snapshot = try decodeMigrating(
                    try file.readAll(), model: model, migration: migration, writingTo: nil)
                current = file
                return snapshot
            }
            try file.lock()
            do {
                let snapshot: StoreSnapshot
                if file.exists {
                    snapshot = try decodeMigrating(
                        try file.readAll(), model: model, migration: migration, writingTo: file)
                } else {
                    snapshot = StoreSnapshot(model: model)
                    try file.atomicFile.write(JSONStoreDocument.encode(snapshot, pretty: prettyPrinted))
                }
                current = file
                return snapshot
            } catch {
                file.unlock()
                throw error
            }
        }
    }

    /// Makes one change set durable: all of it, or none of it if it throws.
    public func save(_ changes: StoreChangeSet) throws {
        try file.withLock { file in
            guard let current = file else { throw PersistenceError.storeClosed(url) }
            guard !isReadOnly else { throw PersistenceError.readOnlyStore("The store \(url.path)", url: url) }
            guard !current.needsReopen else { throw PersistenceError.storeNeedsReopen(url) }
            var outcomeUnknown = false
            do {
                try current.atomicFile.write(
                    JSONStoreDocument.encode(changes.snapshot, pretty: prettyPrinted), outcomeUnknown: &outcomeUnknown)
            } catch {
                // The file may hold this save or the one before: later saves would build on an
                // unknown state, so they are refused until the store is read again.
                if outcomeUnknown { file?.needsReopen = true }
                throw error
            }
        }
    }

    /// Releases the store so that another container can open it.
    public func close() {
        file.withLock { file in
            file?.unlock()
            file = nil
        }
    }

    deinit { close() }
}
