extension SQLStoreSchema {
    /// The history column that holds the last key of a run of deleted keys (a
    /// ``ChangeKind/deleteRun`` row deletes every key from `key` to it); `NULL` in other rows.
    /// Added by format version 2.
    static let lastKeyColumn = "last_key"

    /// One `deleteRun` row met while reading the history, before its last key is read.
    struct PendingRun {
        /// The transaction's index in the transactions read.
        var position: Int
        /// Where the run's changes go among the transaction's changes.
        var index: Int
        var entity: String
        var firstKey: Int64
    }

    /// Records the deletions of emptied entities' objects as one history row per run of
    /// consecutive keys, in the transaction `token`: a delete of every object of a table filled by
    /// inserts is one row, not one per object.
    func recordDeletedRuns(_ runs: [EmptiedEntities.KeyRun], token: Int64, in database: any SQLDatabase) throws {
        guard !runs.isEmpty else { return }
        let dialect = database.dialect
        let insert =
            "INSERT INTO \(dialect.quote(Self.changesTable)) (token, entity, key, kind, \(Self.lastKeyColumn)) "
            + "VALUES (\(dialect.placeholders(5)))"
        for run in runs where !run.keys.isEmpty {
            try database.run(
                insert,
                [
                    .integer(token), .text(run.entityName), .integer(run.keys.lowerBound),
                    .integer(ChangeKind.deleteRun.rawValue), .integer(run.keys.upperBound - 1),
                ])
        }
    }

    /// Puts the deletions of the `deleteRun` rows read by ``readHistory(after:_:)`` in their
    /// transactions, one change per key, where the rows stood. Their last keys are read in a
    /// second query, which only a store that has such rows (format 2) runs, so a version 1 store
    /// opened read-only reads its history too. A run outside the valid keys
    /// (1…`EntityTable.maxKey`) or without a last key is left out, as unreadable rows are.
    func expandRuns(
        _ runs: [PendingRun], after token: Int64, into transactions: inout [PersistentHistoryTransaction],
        _ database: any SQLDatabase
    ) throws {
        guard !runs.isEmpty else { return }
        let dialect = database.dialect
        var lastKeys: [Int64?] = []
        lastKeys.reserveCapacity(runs.count)
        try database.forEachRow(
            "SELECT \(Self.lastKeyColumn) FROM \(dialect.quote(Self.changesTable)) WHERE token > "
                + "\(dialect.placeholder(1)) AND kind = \(ChangeKind.deleteRun.rawValue) "
                + "ORDER BY token, \(dialect.insertionOrderColumn)", [.integer(token)]
        ) { row in lastKeys.append(row.column(0).integer) }
        guard lastKeys.count == runs.count else { return }
        // Back to front, so that each run's index still counts only the changes before it.
        for (run, last) in zip(runs, lastKeys).reversed() {
            guard let last, run.firstKey >= 1, run.firstKey <= last, last <= EntityTable.maxKey else { continue }
            let entity = run.entity
            transactions[run.position].changes.insert(
                contentsOf: (run.firstKey...last).lazy.map {
                    PersistentHistoryChange(objectID: ObjectID(entityName: entity, key: $0), changeType: .delete)
                }, at: run.index)
        }
    }

    /// Brings a store of format version 1 to the current one, inside the open's write
    /// transaction: adds the history's ``lastKeyColumn`` and records the new version. A store
    /// already at it is left as it is (one metadata read).
    func upgradeFormat(_ database: any SQLDatabase) throws {
        let dialect = database.dialect
        let metadata = dialect.quote(Self.metadataTable)
        guard let stored = try Self.storedFormatVersion(database), stored < Self.formatVersion else { return }
        if stored < 2 {
            try database.execute(
                "ALTER TABLE \(dialect.quote(Self.changesTable)) ADD COLUMN \(Self.lastKeyColumn) "
                    + dialect.typeName(.key))
        }
        try database.run(
            "UPDATE \(metadata) SET value = \(dialect.placeholder(1)) WHERE name = \(dialect.placeholder(2))",
            [.text(String(Self.formatVersion)), .text("format")])
    }

    /// The format version the store's metadata records, or `nil` if it records none.
    static func storedFormatVersion(_ database: any SQLDatabase) throws -> Int? {
        try database.rows(
            "SELECT value FROM \(database.dialect.quote(metadataTable)) WHERE name = \(database.dialect.placeholder(1))",
            [.text("format")]
        ).first?.first?.text.flatMap { Int($0) }
    }
}
