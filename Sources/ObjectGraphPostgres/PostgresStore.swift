import Foundation
import ObjectGraph

/// A store that keeps its data in a PostgreSQL database, which several servers (each with its
/// own container) share: a table per entity, written one change set at a time.
///
/// Each save writes only what changed in one transaction that holds the store's advisory lock
/// (`pg_advisory_xact_lock`), so the servers' writes run one at a time, and checks each updated
/// row's version in its `UPDATE`: a row another server saved meanwhile fails the save with
/// `.conflict` (the context's merge policy then decides), changing nothing. Every save is
/// recorded in the store's persistent history and announced with `NOTIFY`; a container sees
/// the others' saves on its next fetch, count or save (and its contexts that merge
/// automatically, then too). The tables, the history and the key blocks are the SQLite store's
/// (Docs/PostgreSQL.md); every store of one database lives in its own PostgreSQL ``schema``.
///
/// Failures are typed and never leave a partial save: a dropped connection or a server restart
/// is `.ioFailure` (the next call connects again; a read that found its connection dropped is
/// retried once on a new one), a statement timeout `.timedOut`, a serialization failure or
/// deadlock `.conflict`, another server holding the write lock longer than ``lockTimeout``
/// `.storeLocked`. Every value round-trips exactly: doubles and floats (`NaN` with its
/// payload, `-0.0`, infinities) keep every bit in `double precision` columns, and strings holding
/// a NUL character, which PostgreSQL text cannot, are stored escaped (order kept); only store
/// metadata with a NUL is refused, with `.typeMismatch`.
///
/// For example:
/// ```swift
/// let store = try PostgresStore(url: "postgresql://app@db.internal/appdb", schema: "inventory")
/// let container = try PersistentContainer(model: model, store: store)
/// ```
///
/// Core Data: none (Core Data has no server store); the nearest is `NSSQLiteStoreType` with
/// persistent history tracking.
public final class PostgresStore: PersistentStore {
    /// The server and connection settings (its ``PostgresConfiguration/statementTimeout`` bounds
    /// every statement).
    public let configuration: PostgresConfiguration
    /// The PostgreSQL schema (namespace) that holds the store's tables, created on first open;
    /// `nil` for the connection's current schema (`public`, unless the server's `search_path`
    /// says otherwise).
    public let schema: String?
    /// Whether the store was opened read-only: ``load(model:)`` never creates or changes
    /// anything, and every ``save(_:)`` throws `PersistenceError.Code.readOnlyStore`.
    ///
    /// Core Data: `NSReadOnlyPersistentStoreOption`.
    public let isReadOnly: Bool
    /// How long a save waits for another server's write lock before it fails with
    /// `.storeLocked`; 5 seconds by default.
    public let lockTimeout: Duration
    /// What ``load(model:)`` does with a store written with another model: migrate it in one
    /// transaction under the store's advisory lock (the default), refuse, or erase it. See
    /// Docs/Migration.md.
    ///
    /// Core Data: `NSMigratePersistentStoresAutomaticallyOption`.
    public let migration: MigrationOptions
    // Everything the open store uses; the lock serialises every call on the connection.
    let state = Locked<PostgresStoreState?>(nil)
    /// The listener that wakes the container when another server saves, while the store is open.
    let changeListener = Locked<PostgresChangeListener?>(nil)
    /// A fault to inject inside a save's transaction, just before it commits (tests only).
    let beforeCommit = Locked<(@Sendable () throws -> Void)?>(nil)

    /// A store in the database `configuration` reaches, in the PostgreSQL schema `schema`;
    /// migrated on open as `migration` says.
    public init(
        configuration: PostgresConfiguration, schema: String? = nil, isReadOnly: Bool = false,
        lockTimeout: Duration = .seconds(5), migration: MigrationOptions = .automatic
    ) {
        self.configuration = configuration
        self.schema = schema
        self.isReadOnly = isReadOnly
        self.lockTimeout = lockTimeout
        self.migration = migration
    }

    /// A store in the database a libpq connection URL names, in the PostgreSQL schema `schema`;
    /// migrated on open as `migration` says.
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat` if libpq cannot parse `url`.
    public convenience init(
        url: String, schema: String? = nil, isReadOnly: Bool = false, migration: MigrationOptions = .automatic
    ) throws {
        self.init(
            configuration: try PostgresConfiguration(url: url), schema: schema, isReadOnly: isReadOnly,
            migration: migration)
    }

    /// Connects, creates the schema and its tables in one transaction under the store's advisory
    /// lock if they do not exist (or checks them against `model`, migrating a store written with
    /// another model in that transaction, as ``migration`` says), and reads everything the store
    /// holds.
    ///
    /// A migration runs one server at a time: another server opening meanwhile waits for the
    /// advisory lock (at most ``lockTimeout``), then finds the migrated schema. If it fails, the
    /// schema stays as it was. Containers open on the old model get `.modelMismatch` at their
    /// next save or fetch.
    ///
    /// - Throws: `.storeLocked` if this instance is already open, or another server held the
    ///   advisory lock longer than ``lockTimeout``; `.modelMismatch` for a store written with
    ///   another model that cannot or may not be migrated; `.unsupportedFormat` for a schema
    ///   holding other tables; `.invalidModel` for a table or index name longer than PostgreSQL's
    ///   63 bytes; `.ioFailure` if the server cannot be reached.
    /// - Complexity: O(*n*) for *n* stored objects.
    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        try open(model, migration: migration, readingRows: true)
    }

    /// Opens the store for `model`, migrating it as `migration` says; reads every row with
    /// `readingRows`, else only the next keys and the store metadata (a container that queries
    /// the store), unless a read-only store migrated them in memory. Retried once on a new
    /// session if the connection drops (the open's transaction is then rolled back).
    func open(_ model: ManagedObjectModel, migration: MigrationOptions, readingRows: Bool) throws -> StoreSnapshot {
        try state.withLock { open in
            guard open == nil else { throw PersistenceError.postgresStoreInUse(server: server) }
            do {
                return try openStore(model, migration: migration, readingRows: readingRows, into: &open)
            } catch let error as PersistenceError where error.isConnectionLost {
                return try openStore(model, migration: migration, readingRows: readingRows, into: &open)
            }
        }
    }

    /// Writes the change set in one transaction: all of it, or (if it throws) none of it.
    ///
    /// - Throws: `.readOnlyStore` for a read-only store; `.storeClosed` before ``load(model:)``;
    ///   `.typeMismatch` for store metadata holding a NUL; `.conflict` if another server saved an updated
    ///   object since this container read it (or the server reports a serialization failure);
    ///   `.storeLocked` if another server holds the write lock longer than ``lockTimeout``;
    ///   `.timedOut` for a statement timeout; `.ioFailure` for a lost connection (when it was
    ///   lost while committing, the message says the outcome is unknown; the history tells).
    /// - Complexity: O(*c*) statements for *c* changed objects and relationship members.
    public func save(_ changes: StoreChangeSet) throws {
        let fault = beforeCommit.withLock { $0 }
        try state.withLock { open in
            guard var current = open else { throw PersistenceError.postgresStoreClosed(server: server) }
            guard !isReadOnly else { throw PersistenceError.postgresReadOnlyStore(server: server) }
            try reconnectIfDropped(&current)
            open = current
            let connection = current.connection
            let channel = current.channel
            try current.engine.save(changes) { token in
                if let token { try connection.notify(channel, payload: String(token)) }
                try fault?()
            }
        }
    }

    /// Gives back the unused keys of the last reserved blocks and disconnects, so that another
    /// container can open the store.
    public func close() {
        changeListener.withLock { listener in
            listener?.stop()
            listener = nil
        }
        state.withLock { open in
            open?.engine.close()
            open = nil
        }
    }

    deinit { close() }

    /// The server and schema, as messages name them.
    var server: String { configuration.description + (schema.map { " (schema \($0))" } ?? "") }

    /// Connects and opens the store on the new connection.
    private func openStore(
        _ model: ManagedObjectModel, migration: MigrationOptions, readingRows: Bool,
        into open: inout PostgresStoreState?
    ) throws -> StoreSnapshot {
        let session = try connect()
        do {
            let (connection, namespace) = session
            if let schema, !isReadOnly,
                try connection.rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", [.text(schema)]).isEmpty
            {
                try connection.writeTransaction {
                    try connection.execute("CREATE SCHEMA IF NOT EXISTS \(connection.dialect.quote(schema))")
                }
            }
            let engine = try SQLStoreEngine(database: connection, model: model, url: Self.url(configuration, namespace))
            let backUp = { try self.backUp(namespace, on: connection) }
            if let migrated = try engine.prepareSchema(create: !isReadOnly, migration: migration, backUp: backUp) {
                // Migrated in memory only: the schema keeps the old model, whose rows and history
                // this container does not read.
                open = PostgresStoreState(engine: engine, connection: connection, namespace: namespace)
                return migrated
            }
            let snapshot = try engine.readSnapshot(readingRows: readingRows)
            open = PostgresStoreState(engine: engine, connection: connection, namespace: namespace)
            return snapshot
        } catch {
            session.connection.close()
            throw error
        }
    }

    /// A new session: the statement and lock timeouts, the schema on the search path, the
    /// store's write lock and change channel; and the schema it resolved to.
    func connect(namespace known: String? = nil) throws -> (connection: PostgresConnection, namespace: String) {
        let connection = try PostgresConnection(configuration: configuration)
        do {
            let dialect = connection.dialect
            try connection.execute("SET lock_timeout = \(max(1, Self.milliseconds(lockTimeout)))")
            if let schema { try connection.execute("SET search_path TO \(dialect.quote(schema))") }
            let namespace =
                try known ?? schema ?? connection.rows("SELECT current_schema()").first?.first?.text ?? "public"
            connection.writeLockName = "objectgraph:" + namespace
            try connection.listen(PostgresStoreState.channel(namespace))
            return (connection, namespace)
        } catch {
            connection.close()
            throw error
        }
    }

    /// Replaces the session of `current` with a new one if the server dropped it (nothing was
    /// running on it then, so nothing is lost); the history is then read at the next check,
    /// since notifications sent meanwhile went to the old session.
    func reconnectIfDropped(_ current: inout PostgresStoreState) throws {
        guard !current.connection.isUsable else { return }
        try reconnect(&current)
    }

    /// Replaces the session of `current` with a new one.
    func reconnect(_ current: inout PostgresStoreState) throws {
        let (connection, _) = try connect(namespace: current.namespace)
        current.connection.close()
        current.connection = connection
        current.engine.database = connection
        current.mustReadHistory = true
    }

    /// The store's location for messages: the server, database and schema, never the password.
    private static func url(_ configuration: PostgresConfiguration, _ namespace: String) -> URL {
        var components = URLComponents()
        components.scheme = "postgresql"
        components.host = configuration["host"].flatMap { $0.hasPrefix("/") ? nil : $0 } ?? "localhost"
        components.path = "/" + (configuration.database ?? "postgres") + "/" + namespace
        return components.url ?? URL(fileURLWithPath: "/" + namespace)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

/// What an open ``PostgresStore`` holds, inside its `state` lock.
///
/// `@unchecked Sendable`: the connection and the engine are not thread-safe, and are only reached
/// inside the store's `Locked`, one thread at a time.
struct PostgresStoreState: @unchecked Sendable {
    var engine: SQLStoreEngine
    var connection: PostgresConnection
    /// The PostgreSQL schema the store's tables are in.
    var namespace: String
    /// Whether the history must be read at the next check even without a notification (the
    /// session was replaced, so notifications may have been missed).
    var mustReadHistory = false

    /// The `LISTEN/NOTIFY` channel of the store.
    var channel: String { Self.channel(namespace) }

    /// The channel of the store in schema `namespace`: a stable hash (FNV-1a), since a channel
    /// name holds at most 63 bytes and a schema name may be as long.
    static func channel(_ namespace: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in namespace.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "objectgraph_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
