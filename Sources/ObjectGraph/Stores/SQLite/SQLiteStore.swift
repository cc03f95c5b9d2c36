import Foundation

/// A store that keeps its data in a SQLite database file: a table per entity, written one change
/// set at a time, in transactions that several processes can share.
///
/// Each save writes only what changed (prepared, cached `INSERT`, `UPDATE` and `DELETE`
/// statements) in one transaction, and checks each updated row's version in its `UPDATE`: a row
/// another process saved meanwhile fails the save with `.conflict`, changing nothing. The file
/// is in WAL mode with `synchronous=FULL` by default, so a save that returned survives a crash or
/// power loss; ``Synchronous/normal`` trades that last guarantee (not the file's consistency)
/// for speed. Several processes may open the same file; each records its saves in the store's
/// persistent history, and a container sees the others' saves on its next fetch. One store
/// instance serves one container at a time (opening it twice is `.storeLocked`). The layout is
/// in Docs/StoreFormats.md; the SQL seam it shares with other SQL stores, in
/// Docs/Architecture.md.
///
/// For example:
/// ```swift
/// let store = SQLiteStore(url: URL(fileURLWithPath: "fruits.sqlite"))
/// let container = try PersistentContainer(model: model, store: store)
/// ```
///
/// Core Data: `NSSQLiteStoreType`.
public final class SQLiteStore: PersistentStore {
    /// How hard SQLite works to make a save durable before it returns.
    ///
    /// Core Data: the `journal_mode` and `synchronous` SQLite pragmas of `NSSQLitePragmasOption`.
    public enum Synchronous: String, Sendable, Hashable {
        /// `synchronous=FULL`: the write-ahead log is flushed at every commit; a save that
        /// returned survives power loss. The default.
        case full = "FULL"
        /// `synchronous=NORMAL`: the log is flushed at checkpoints; the file stays consistent,
        /// but the last saves before a power loss (not a process crash) may be lost.
        case normal = "NORMAL"
    }

    /// The database file's location, as given.
    public let url: URL
    /// Whether the store was opened read-only: ``load(model:)`` never creates or changes the
    /// file, and every ``save(_:)`` throws `PersistenceError.Code.readOnlyStore`.
    ///
    /// Core Data: `NSReadOnlyPersistentStoreOption`.
    public let isReadOnly: Bool
    /// How durable a save is when it returns; ``Synchronous/full`` by default.
    public let synchronous: Synchronous
    /// How long a save or open waits for another process's write lock before it fails with
    /// `.storeLocked`; 5 seconds by default.
    public let busyTimeout: Duration
    /// What ``load(model:)`` does with a file written with another model: migrate it in one
    /// transaction (the default), refuse, or erase it. See Docs/Migration.md.
    ///
    /// Core Data: `NSMigratePersistentStoresAutomaticallyOption`.
    public let migration: MigrationOptions
    // Everything the open store uses; the lock serialises every call on the connection.
    let state = Locked<SQLiteStoreState?>(nil)

    /// A store at `url`; migrated on open as `migration` says.
    public init(
        url: URL, isReadOnly: Bool = false, synchronous: Synchronous = .full, busyTimeout: Duration = .seconds(5),
        migration: MigrationOptions = .automatic
    ) {
        self.url = url
        self.isReadOnly = isReadOnly
        self.synchronous = synchronous
        self.busyTimeout = busyTimeout
        self.migration = migration
    }

    /// Opens the file (creating it and its schema in one transaction if it does not exist),
    /// migrates it if it was written with another model (in one transaction, as ``migration``
    /// says), and reads everything it holds.
    ///
    /// - Throws: `.storeLocked` if this instance is already open; `.modelMismatch` for a file
    ///   written with another model that cannot or may not be migrated (read its schema with
    ///   ``storedSchema(at:)``), or when another process migrated the store since;
    ///   `.unsupportedFormat` for a SQLite file that is not a store; `.corruptStore`,
    ///   `.ioFailure` as SQLite reports them.
    /// - Complexity: O(*n*) for *n* stored objects.
    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        try openStore(model: model, migration: migration, readingRows: true)
    }

    func load(model: ManagedObjectModel, migration: MigrationOptions) throws -> StoreSnapshot {
        try openStore(model: model, migration: migration, readingRows: true)
    }

    /// Opens the file for `model`, migrating it as `migration` says; reads every row with
    /// `readingRows`, else only the next keys and the store metadata (a container that queries
    /// the file), unless a read-only store migrated them in memory.
    func openStore(model: ManagedObjectModel, migration: MigrationOptions, readingRows: Bool) throws -> StoreSnapshot {
        try state.withLock { open in
            guard open == nil else { throw PersistenceError.storeLocked(url) }
            let connection = try connect()
            do {
                let engine = try SQLStoreEngine(database: connection, model: model, url: url)
                let backUp = { try self.copyCommittedFile(to: MigrationOptions.backupURL(for: self.url)) }
                if let migrated = try engine.prepareSchema(create: !isReadOnly, migration: migration, backUp: backUp) {
                    // Migrated in memory only: the file keeps its schema, so other processes'
                    // saves are not read (they are rows of the old model).
                    open = SQLiteStoreState(engine: engine, connection: connection, dataVersion: 0)
                    return migrated
                }
                // Read before the snapshot: a save by another process in between shows as a new
                // data version, and the history after the snapshot's token covers it.
                let dataVersion = try connection.dataVersion()
                let snapshot = try engine.readSnapshot(readingRows: readingRows)
                open = SQLiteStoreState(engine: engine, connection: connection, dataVersion: dataVersion)
                return snapshot
            } catch {
                connection.close()
                throw error
            }
        }
    }

    /// Writes the change set in one transaction: all of it, or (if it throws) none of it.
    ///
    /// - Throws: `.readOnlyStore` for a read-only store; `.storeClosed` before ``load(model:)``;
    ///   `.conflict` if another process saved an updated object since this container read it;
    ///   `.storeLocked` if another process holds the write lock longer than ``busyTimeout``;
    ///   `.ioFailure` for a full disk or an I/O error.
    /// - Complexity: O(*c*) statements for *c* changed objects and relationship members.
    public func save(_ changes: StoreChangeSet) throws {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            guard !isReadOnly else { throw PersistenceError.readOnlyStore("The store \(url.path)", url: url) }
            try current.engine.save(changes)
        }
    }

    /// Releases the store so that another container can open it.
    public func close() {
        state.withLock { open in
            // Gives back unused reserved keys (best effort) and closes the connection.
            open?.engine.close()
            open = nil
        }
    }

    deinit { close() }

    /// The schema the file at `url` was written with, without opening it as a store: what a
    /// migration reads to map its data onto a new model (`ManagedObjectModel(entities:)`).
    ///
    /// - Throws: `.unsupportedFormat` for a file that is not a store or is of a newer format;
    ///   `.corruptStore`, `.ioFailure` as SQLite reports them.
    public static func storedSchema(at url: URL) throws -> [EntityDescription] {
        let hasLog = FileManager.default.fileExists(atPath: url.path + "-wal")
        let connection = try SQLiteConnection(
            url: url, readOnly: true, create: false, busyTimeout: .seconds(5), immutable: !hasLog)
        defer { connection.close() }
        return try connection.readTransaction {
            guard
                try !connection.rows(
                    connection.dialect.tableExistsQuery, [.text(SQLStoreSchema.metadataTable)]
                ).isEmpty
            else { throw PersistenceError.notAStore(url, expected: "an ObjectGraph SQLite store") }
            return try SQLStoreSchema.storedEntities(connection, url: url)
        }
    }

    /// A connection in WAL mode with the configured durability.
    private func connect() throws -> SQLiteConnection {
        let exists = FileManager.default.fileExists(atPath: url.path)
        if isReadOnly && !exists { throw PersistenceError.readOnlyStoreMissing(url) }
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw PersistenceError.missingDirectory(directory, store: url) }
        let connection = try SQLiteConnection(
            url: url, readOnly: isReadOnly, create: !isReadOnly, busyTimeout: busyTimeout)
        do {
            if !isReadOnly { try connection.execute("PRAGMA journal_mode=WAL") }
            try connection.execute("PRAGMA synchronous=\(synchronous.rawValue)")
            return connection
        } catch {
            connection.close()
            throw error
        }
    }
}

/// What an open ``SQLiteStore`` holds, inside its `state` lock: the SQL store engine (schema,
/// statements, history and key bookkeeping) on its connection, and SQLite's change counter.
///
/// `@unchecked Sendable`: the connection and its statements are not thread-safe, and are only
/// reached inside the store's `Locked`, one thread at a time (what `Mutex` allowed for any value).
struct SQLiteStoreState: @unchecked Sendable {
    var engine: SQLStoreEngine
    /// The engine's connection, typed.
    var connection: SQLiteConnection
    /// `PRAGMA data_version` when the store last looked for other processes' saves.
    var dataVersion: Int64

    /// The layout of the model in the file.
    var schema: SQLStoreSchema { engine.schema }
    /// The statements per table, in the connection's dialect.
    var statements: [SQLStoreSchema.TableStatements] { engine.statements }
}
