import Foundation

/// What every SQL store does over its one connection: set up or check the schema, read a whole
/// snapshot, write a change set with version-checked `UPDATE`s and record it in the persistent
/// history, read other processes' saves by history token, and reserve blocks of keys.
///
/// A store class (``SQLiteStore``, the PostgreSQL store) owns one engine while it is open, keeps
/// it inside its own lock (the engine is not thread-safe, as its connection is not), and adds
/// what differs per database: how to connect, durability settings, the write lock, and the
/// cheap signal that another process saved (SQLite's `PRAGMA data_version`, PostgreSQL's
/// `LISTEN/NOTIFY`). The engine's ``database`` may be replaced by a new connection to the same
/// database (after the server dropped the old one); its state is the store's, not the session's.
package final class SQLStoreEngine {
    /// The connection the engine runs its statements on.
    package var database: any SQLDatabase
    /// Where the store is, for error messages.
    package let url: URL
    let schema: SQLStoreSchema
    let statements: [SQLStoreSchema.TableStatements]
    /// What the last save wrote besides rows.
    var written = SQLStoreSchema.WrittenState()
    /// The last history token this store has seen (its own saves' or others').
    package private(set) var historyToken: Int64 = 0
    /// Tokens of this store's own saves not yet passed by ``historyToken``.
    private var ownTokens: [Int64] = []
    /// Per entity, the end of the last block of keys this store reserved for its container.
    private var reservedKeyEnds: [String: Int64] = [:]
    /// The store's migration count when it was opened: a save, a read of other processes' saves
    /// and a key reservation first check that no process migrated it since (-1: a read-only
    /// store migrated in memory, whose file keeps the old schema; nothing is checked or read).
    package var generation: Int64 = 0

    /// An engine for `model` on `database`; nothing runs until ``prepareSchema(create:)``.
    ///
    /// - Throws: `.invalidModel` if the model's tables or columns would share a name, or a name
    ///   is longer than the database keeps.
    package init(database: any SQLDatabase, model: ManagedObjectModel, url: URL) throws {
        self.database = database
        self.url = url
        schema = try SQLStoreSchema(model: model)
        try Self.checkIdentifiers(schema, database.dialect)
        statements = schema.statements(database.dialect)
    }

    /// The model the engine stores.
    package var model: ManagedObjectModel { schema.model }

    /// Creates the schema in an empty database (`create`), or checks the stored one against the
    /// model, in one write transaction (a read transaction when `create` is false, for a
    /// read-only store).
    ///
    /// - Throws: `.modelMismatch`, `.unsupportedFormat`, `.corruptStore` (see
    ///   `SQLStoreSchema.prepare`); the connection's errors.
    package func prepareSchema(create: Bool) throws {
        if create {
            try database.writeTransaction { try schema.prepare(database, url: url, create: true) }
        } else {
            try database.readTransaction { try schema.prepare(database, url: url, create: false) }
        }
    }

    /// ``prepareSchema(create:)`` that migrates a database written with another model as
    /// `migration` says, in the same transaction (`backUp` copies the committed database first
    /// when the options keep a backup).
    ///
    /// - Returns: The migrated objects when a read-only store migrated them in memory only (its
    ///   ``generation`` is then -1); `nil` when the database holds the model's schema.
    package func prepareSchema(create: Bool, migration: MigrationOptions, backUp: () throws -> Void) throws
        -> StoreSnapshot?
    {
        let migrated =
            create
            ? try database.writeTransaction {
                try schema.prepare(database, url: url, create: true, migration: migration, backUp: backUp)
            }
            : try database.readTransaction {
                try schema.prepare(database, url: url, create: false, migration: migration, backUp: backUp)
            }
        if migrated != nil { generation = -1 }
        return migrated
    }

    /// Reads every stored object, the next keys and the metadata in one read transaction, and
    /// starts following the history from its last token.
    ///
    /// - Complexity: O(*n*) for *n* stored objects.
    package func readSnapshot(readingRows: Bool = true) throws -> StoreSnapshot {
        let (snapshot, keys, token, generation) = try database.readTransaction {
            (
                readingRows
                    ? try schema.readSnapshot(database, statements: statements, url: url)
                    : try schema.readEmptySnapshot(database),
                try schema.readNextKeys(database),
                try schema.lastHistoryToken(database),
                try SQLStoreSchema.generation(database)
            )
        }
        self.generation = generation
        written = SQLStoreSchema.WrittenState(nextKeys: keys, metadata: snapshot.metadata)
        historyToken = token
        ownTokens = []
        return snapshot
    }

    /// Writes `changes` and records them in the history, in one write transaction: all of it or
    /// (if it throws) none of it. `beforeCommit` runs last inside the transaction (a store
    /// sends its change signal there, so that it is delivered only if the save commits).
    ///
    /// - Returns: The save's history token, or `nil` if it changed no object.
    /// - Throws: `.typeMismatch` for store metadata the database cannot hold (a NUL in
    ///   PostgreSQL), before anything is written; `.conflict` for a row another process changed
    ///   since it was read; the connection's errors (the transaction is rolled back).
    @discardableResult
    package func save(_ changes: StoreChangeSet, beforeCommit: (Int64?) throws -> Void = { _ in }) throws -> Int64? {
        try checkStorable(changes)
        var written = self.written
        let token = try database.writeTransaction {
            try checkGeneration()
            let changed = try schema.write(changes, to: database, statements: statements, url: url, written: &written)
            let token = try schema.recordHistory(changed, deletedRuns: changes.emptied?.runs ?? [], in: database)
            try beforeCommit(token)
            return token
        }
        self.written = written
        if let token {
            // With no other process's save in between, the history is known up to this save.
            if ownTokens.isEmpty && token == historyToken + 1 {
                historyToken = token
            } else {
                ownTokens.append(token)
            }
        }
        return token
    }

    /// Gives back unused reserved keys (best effort: a failure leaves them reserved, which costs
    /// only key space) and closes the connection.
    package func close() {
        if generation >= 0 {
            try? schema.releaseUnusedKeys(reservedKeyEnds, written: written, generation: generation, in: database)
        }
        database.close()
    }

    /// The transactions after `token` (all if `nil`), oldest first, in one read transaction.
    package func fetchHistory(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        try database.readTransaction { try schema.readHistory(after: token?.value ?? 0, database) }
    }

    /// Deletes the transactions before `token` (never the last one) in one write transaction.
    ///
    /// - Returns: The number of transactions deleted.
    /// - Throws: `.modelMismatch` if another process migrated the store; the connection's errors.
    @discardableResult
    package func deleteHistory(before token: PersistentHistoryToken) throws -> Int {
        try database.writeTransaction {
            try checkGeneration()
            return try schema.deleteHistory(before: token.value, database)
        }
    }

    /// The token of the last recorded transaction, or `nil` if none was.
    package func currentHistoryToken() throws -> PersistentHistoryToken? {
        let token = try schema.lastHistoryToken(database)
        return token > 0 ? PersistentHistoryToken(value: token) : nil
    }

    /// The saves other processes made after ``historyToken`` (this store's own are skipped): the
    /// current rows of the objects they inserted or updated, the IDs they deleted, and the store
    /// metadata; `nil` if there were none. Moves ``historyToken`` past them. Without
    /// `readingRows`, the changed objects are only listed (``StoreExternalChanges/inserted``
    /// and ``StoreExternalChanges/updated``), no row read.
    package func externalChanges(readingRows: Bool = true) throws -> StoreExternalChanges? {
        guard generation >= 0 else { return nil }
        let (changes, last) = try database.readTransaction { () -> (StoreExternalChanges?, Int64) in
            try checkGeneration()
            let transactions = try schema.readHistory(after: historyToken, database)
            let last = transactions.last?.token.value ?? historyToken
            var latest: [ObjectID: PersistentHistoryChange.ChangeType] = [:]
            var order: [ObjectID] = []
            var new: Set<ObjectID> = []
            for transaction in transactions where !ownTokens.contains(transaction.token.value) {
                for change in transaction.changes {
                    if latest.updateValue(change.changeType, forKey: change.objectID) == nil {
                        order.append(change.objectID)
                        if change.changeType == .insert { new.insert(change.objectID) }
                    }
                }
            }
            guard !order.isEmpty else { return (nil, last) }
            let deleted = order.filter { latest[$0] == .delete }
            let changed = order.filter { latest[$0] != .delete }
            let records = readingRows ? try schema.readRecords(changed, database, statements: statements, url: url) : []
            let metadata = try schema.readStoreMetadata(database)
            var changes = StoreExternalChanges(records: records, deleted: deleted, metadata: metadata)
            changes.inserted = changed.filter(new.contains)
            changes.updated = changed.filter { !new.contains($0) }
            return (changes, last)
        }
        historyToken = last
        ownTokens.removeAll { $0 <= last }
        written.metadata = changes?.metadata ?? written.metadata
        return changes
    }

    /// Reserves `count` never-used keys of `entityName` in one write transaction: from the
    /// larger of the persisted next key and the largest stored key plus one.
    ///
    /// - Throws: `.unknownEntity` for an entity not in the model; the connection's errors.
    package func reserveKeys(ofEntity entityName: String, count: Int64) throws -> Int64 {
        guard let info = schema.model.info(named: entityName) else { throw PersistenceError.unknownEntity(entityName) }
        let dialect = database.dialect
        let start = try database.writeTransaction {
            try checkGeneration()
            let persisted =
                try database.rows(
                    "SELECT next FROM \(dialect.quote(SQLStoreSchema.keysTable)) WHERE entity = \(dialect.placeholder(1))",
                    [.text(entityName)]
                ).first?.first?.integer ?? 1
            let stored =
                try database.rows(
                    "SELECT MAX(\(dialect.quote(SQLStoreSchema.keyColumn))) FROM "
                        + dialect.quote(schema.tables[info.index].name)
                ).first?.first?.integer ?? 0
            let start = max(persisted, stored + 1)
            try database.run(schema.nextKeyUpsert(dialect), [.text(entityName), .integer(start + count)])
            return start
        }
        reservedKeyEnds[entityName] = start + count
        return start
    }

    /// Throws `.modelMismatch` if another process migrated the store since it was opened (a
    /// store migrated in memory has nothing to check).
    package func checkGeneration() throws {
        if generation >= 0 { try SQLStoreSchema.checkGeneration(generation, database, url: url) }
    }
}
