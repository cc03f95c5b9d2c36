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
        try load(model: model, migration: migration)
    }

    func load(model: ManagedObjectModel, migration: MigrationOptions) throws -> StoreSnapshot {
        try state.withLock { open in
            guard open == nil else { throw PersistenceError.storeLocked(url) }
            let connection = try connect()
            do {
                let schema = try SQLStoreSchema(model: model)
                let backUp = { try self.copyCommittedFile(to: MigrationOptions.backupURL(for: self.url)) }
                if isReadOnly {
                    let migrated = try connection.readTransaction {
                        try schema.prepare(connection, url: url, create: false, migration: migration, backUp: backUp)
                    }
                    if let migrated {
                        // Migrated in memory only: the file keeps its schema, so other processes'
                        // saves are not read (they are rows of the old model).
                        open = SQLiteStoreState(
                            connection: connection, schema: schema, statements: [],
                            written: SQLStoreSchema.WrittenState(), historyToken: 0, dataVersion: 0,
                            generation: -1)
                        return migrated
                    }
                } else {
                    _ = try connection.writeTransaction {
                        try schema.prepare(connection, url: url, create: true, migration: migration, backUp: backUp)
                    }
                }
                let statements = schema.statements(connection.dialect)
                // Read before the snapshot: a save by another process in between shows as a new
                // data version, and the history after the snapshot's token covers it.
                let dataVersion = try connection.dataVersion()
                let (snapshot, keys, token, generation) = try connection.readTransaction {
                    (
                        try schema.readSnapshot(connection, statements: statements, url: url),
                        try schema.readNextKeys(connection),
                        try schema.lastHistoryToken(connection),
                        try SQLStoreSchema.generation(connection)
                    )
                }
                open = SQLiteStoreState(
                    connection: connection, schema: schema, statements: statements,
                    written: SQLStoreSchema.WrittenState(nextKeys: keys, metadata: snapshot.metadata),
                    historyToken: token, dataVersion: dataVersion, generation: generation)
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
            guard var current = open else { throw PersistenceError.storeClosed(url) }
            guard !isReadOnly else { throw PersistenceError.readOnlyStore("The store \(url.path)", url: url) }
            var written = current.written
            let connection = current.connection
            let token = try connection.writeTransaction {
                try SQLStoreSchema.checkGeneration(current.generation, connection, url: url)
                let changed = try current.schema.write(
                    changes, to: connection, statements: current.statements, url: url, written: &written)
                return try current.schema.recordHistory(changed, in: connection)
            }
            current.written = written
            if let token {
                // With no other process's save in between, the history is known up to this save.
                if current.ownTokens.isEmpty && token == current.historyToken + 1 {
                    current.historyToken = token
                } else {
                    current.ownTokens.append(token)
                }
            }
            open = current
        }
    }

    /// Releases the store so that another container can open it.
    public func close() {
        state.withLock { open in
            guard let current = open else { return }
            // Best effort: a failure leaves the unused keys reserved, which costs only key space.
            try? current.schema.releaseUnusedKeys(
                current.reservedKeyEnds, written: current.written, generation: current.generation,
                in: current.connection)
            current.connection.close()
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

/// What an open ``SQLiteStore`` holds, inside its `state` lock.
///
/// `@unchecked Sendable`: the connection and its statements are not thread-safe, and are only
/// reached inside the store's `Locked`, one thread at a time (what `Mutex` allowed for any value).
struct SQLiteStoreState: @unchecked Sendable {
    var connection: SQLiteConnection
    var schema: SQLStoreSchema
    var statements: [SQLStoreSchema.TableStatements]
    var written: SQLStoreSchema.WrittenState
    /// The last history token this store has seen (its own saves' or others').
    var historyToken: Int64
    /// `PRAGMA data_version` when the store last looked for other processes' saves.
    var dataVersion: Int64
    /// The store's migration count when it was opened: a save or a read of other processes'
    /// saves first checks that no process migrated it since (-1: migrated in memory, read-only).
    var generation: Int64
    /// Tokens of this store's own saves not yet passed by ``historyToken``.
    var ownTokens: [Int64] = []
    /// Per entity, the end of the last block of keys this store reserved for its container.
    var reservedKeyEnds: [String: Int64] = [:]
}
