import Foundation

extension SQLStoreSchema {
    /// Records one save's changes as a new history transaction, inside the save's transaction:
    /// the deletions of emptied entities' objects first, as runs of keys, then `changes`.
    ///
    /// - Returns: The transaction's token, or `nil` if the save changed no object.
    func recordHistory(
        _ changes: [HistoryChange], deletedRuns: [EmptiedEntities.KeyRun] = [], in database: any SQLDatabase,
        author: String? = nil
    ) throws -> Int64? {
        guard !changes.isEmpty || deletedRuns.contains(where: { !$0.keys.isEmpty }) else { return nil }
        let dialect = database.dialect
        let token = try lastHistoryToken(database) + 1
        try database.run(
            "INSERT INTO \(dialect.quote(Self.transactionsTable)) (token, timestamp, author) "
                + "VALUES (\(dialect.placeholders(3)))",
            [.integer(token), .real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null])
        try recordDeletedRuns(deletedRuns, token: token, in: database)
        let insert =
            "INSERT INTO \(dialect.quote(Self.changesTable)) (token, entity, key, kind, properties) "
            + "VALUES (\(dialect.placeholders(5)))"
        for change in changes {
            try database.run(
                insert,
                [
                    .integer(token), .text(change.entity), .integer(change.key), .integer(change.kind.rawValue),
                    change.properties.map { .text(Self.encodePropertyNames($0)) } ?? .null,
                ])
        }
        return token
    }

    /// The token of the last recorded transaction, 0 if none.
    func lastHistoryToken(_ database: any SQLDatabase) throws -> Int64 {
        try database.rows("SELECT MAX(token) FROM \(database.dialect.quote(Self.transactionsTable))").first?.first?
            .integer ?? 0
    }

    /// The transactions after `token` (all if `nil`), oldest first, each with its changes (a run
    /// of deleted keys as one deletion per key).
    func readHistory(after token: Int64, _ database: any SQLDatabase) throws -> [PersistentHistoryTransaction] {
        let dialect = database.dialect
        var transactions: [PersistentHistoryTransaction] = []
        var positions: [Int64: Int] = [:]
        try database.forEachRow(
            "SELECT token, timestamp, author FROM \(dialect.quote(Self.transactionsTable)) WHERE token > "
                + "\(dialect.placeholder(1)) ORDER BY token", [.integer(token)]
        ) { row in
            guard let token = row.column(0).integer else { return }
            let seconds: Double
            switch row.column(1) {
            case .real(let value): seconds = value
            case .integer(let value): seconds = Double(value)
            default: seconds = 0
            }
            positions[token] = transactions.count
            transactions.append(
                PersistentHistoryTransaction(
                    token: PersistentHistoryToken(value: token),
                    timestamp: Date(timeIntervalSinceReferenceDate: seconds), author: row.column(2).text, changes: []))
        }
        var runs: [PendingRun] = []
        try database.forEachRow(
            "SELECT token, entity, key, kind, properties FROM \(dialect.quote(Self.changesTable)) WHERE token > "
                + "\(dialect.placeholder(1)) ORDER BY token, \(dialect.insertionOrderColumn)", [.integer(token)]
        ) { row in
            guard let token = row.column(0).integer, let position = positions[token], let entity = row.column(1).text,
                let key = row.column(2).integer, let raw = row.column(3).integer, let kind = ChangeKind(rawValue: raw)
            else { return }
            let type: PersistentHistoryChange.ChangeType
            switch kind {
            case .insert: type = .insert
            case .update: type = .update
            case .delete: type = .delete
            case .deleteRun:
                runs.append(
                    PendingRun(
                        position: position, index: transactions[position].changes.count, entity: entity,
                        firstKey: key))
                return
            }
            transactions[position].changes.append(
                PersistentHistoryChange(
                    objectID: ObjectID(entityName: entity, key: key), changeType: type,
                    updatedProperties: kind == .update ? row.column(4).text.flatMap(Self.decodePropertyNames) : nil))
        }
        try expandRuns(runs, after: token, into: &transactions, database)
        return transactions
    }

    /// Property names as the history's `properties` column holds them: a JSON array of strings.
    static func encodePropertyNames(_ names: [String]) -> String {
        var writer = JSONWriter()
        writer.byte(UInt8(ascii: "["))
        for (offset, name) in names.enumerated() {
            if offset > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.string(name)
        }
        writer.byte(UInt8(ascii: "]"))
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The names a `properties` column holds, or `nil` if it is not a JSON array of strings.
    static func decodePropertyNames(_ text: String) -> Set<String>? {
        var reader = JSONReader(bytes: Array(text.utf8), url: URL(fileURLWithPath: "/"))
        var names: Set<String> = []
        do {
            try reader.readArray { reader, _ in names.insert(try reader.readString()) }
            try reader.expectEnd()
        } catch {
            return nil
        }
        return names
    }
}
