import Foundation

extension SQLStoreSchema {
    /// What a SQL store last wrote besides rows, so that a save writes only what changed.
    struct WrittenState: Sendable {
        var nextKeys: [String: Int64] = [:]
        var metadata: [String: String] = [:]
    }

    /// One object's change as the history table records it: for an update, the names of the
    /// properties whose values changed (`nil` when the state it replaced is unknown).
    typealias HistoryChange = (entity: String, key: Int64, kind: ChangeKind, properties: [String]?)

    /// The kinds of change the history table records: `deleteRun` is the delete of every key
    /// from `key` to ``lastKeyColumn`` (an emptied entity's objects, in one row).
    enum ChangeKind: Int64, Sendable {
        case insert = 0, update = 1, delete = 2, deleteRun = 3
    }

    /// Writes one change set: emptied entities, deletes, updates (each checked against the
    /// version it replaces), inserts, then next keys and metadata that changed. Run it inside
    /// a write transaction; it writes only the delta.
    ///
    /// - Returns: The changes for the history table, in the order written; the objects of emptied
    ///   entities are not among them (the history records them as key runs, before these).
    /// - Throws: `.conflict` if an updated or deleted row is no longer at the version it replaces
    ///   (another process saved or deleted it); the connection's errors. The caller rolls back.
    func write(
        _ changes: StoreChangeSet, to database: any SQLDatabase, statements: [TableStatements], url: URL,
        written: inout WrittenState
    ) throws -> [HistoryChange] {
        var history: [HistoryChange] = []
        for name in changes.emptiedEntityNames.sorted() {
            guard let info = model.info(named: name) else { continue }
            let sql = statements[info.index]
            try database.run(sql.deleteAll)
            for join in sql.joins { try database.run(join.deleteAll) }
        }
        for id in changes.individuallyDeleted {
            guard let info = model.info(named: id.entityName) else { continue }
            let sql = statements[info.index]
            // Checked like an update: the row must still be at the version this container read.
            if let expected = changes.previous?.record(for: id)?.version {
                guard try database.run(sql.checkedDelete, [.integer(id.key), .integer(expected)]) == 1 else {
                    let current = try database.rows(sql.selectVersion, [.integer(id.key)]).first?.first?.integer
                    throw PersistenceError.staleDelete(id, expected: expected, current: current, url: url)
                }
            } else {
                try database.run(sql.delete, [.integer(id.key)])
            }
            for join in sql.joins { try database.run(join.deleteOwner, [.integer(id.key)]) }
            history.append((id.entityName, id.key, .delete, nil))
        }
        for record in changes.updated {
            guard let info = model.info(named: record.objectID.entityName) else { continue }
            let table = tables[info.index]
            let sql = statements[info.index]
            // The version the row had when this container last read or wrote it: the commit's
            // previous state says (a row whose references to deleted objects were cleared keeps
            // its version, so the new version alone does not tell).
            let previous = changes.previous?.record(for: record.objectID)
            let expected = previous?.version ?? record.version - 1
            var values = columnValues(record, table, database.dialect)
            values += [.integer(record.version), .integer(record.objectID.key), .integer(expected)]
            guard try database.run(sql.update, values) == 1 else {
                throw PersistenceError.staleRow(record.objectID, expected: expected, url: url)
            }
            try writeJoins(record, table, sql, database, replacing: true)
            history.append(
                (
                    record.objectID.entityName, record.objectID.key, .update,
                    previous.map { changedPropertyNames(from: $0, to: record, info) }
                ))
        }
        for record in changes.inserted {
            guard let info = model.info(named: record.objectID.entityName) else { continue }
            let table = tables[info.index]
            let sql = statements[info.index]
            try database.run(
                sql.insert,
                [.integer(record.objectID.key), .integer(record.version)]
                    + columnValues(record, table, database.dialect))
            try writeJoins(record, table, sql, database, replacing: false)
            history.append((record.objectID.entityName, record.objectID.key, .insert, nil))
        }
        let keys = nextKeyUpsert(database.dialect)
        for info in model.infos {
            let next = changes.snapshot.nextKey(ofEntity: info.name)
            guard written.nextKeys[info.name] != next else { continue }
            try database.run(keys, [.text(info.name), .integer(next)])
            written.nextKeys[info.name] = next
        }
        if changes.snapshot.metadata != written.metadata {
            try writeStoreMetadata(changes.snapshot.metadata, to: database)
            written.metadata = changes.snapshot.metadata
        }
        return history
    }

    /// Raises an entity's persisted next key to a value, never lowering it (another process may
    /// have reserved keys beyond it).
    func nextKeyUpsert(_ dialect: SQLDialect) -> String {
        let table = dialect.quote(Self.keysTable)
        return "INSERT INTO \(table) (entity, next) VALUES (\(dialect.placeholders(2))) ON CONFLICT (entity) "
            + "DO UPDATE SET next = \(dialect.greatest)(\(table).next, excluded.next)"
    }

    /// Replaces the store metadata rows with `metadata`.
    func writeStoreMetadata(_ metadata: [String: String], to database: any SQLDatabase) throws {
        let table = database.dialect.quote(Self.metadataTable)
        try database.run("DELETE FROM \(table) WHERE name LIKE 'store.%'")
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            try database.run(
                "INSERT INTO \(table) (name, value) VALUES (\(database.dialect.placeholders(2)))",
                [.text("store." + key), .text(value)])
        }
    }

    /// The names of the properties (attributes and relationships, in model order) whose values
    /// differ between two states of one object.
    private func changedPropertyNames(from old: StoreRecord, to new: StoreRecord, _ info: EntityInfo) -> [String] {
        (0..<min(old.values.count, new.values.count)).filter { old.values[$0] != new.values[$0] }.map {
            info.propertyName(at: $0)
        }
    }

    /// The record's values for the table's columns, in column order.
    private func columnValues(_ record: StoreRecord, _ table: Table, _ dialect: SQLDialect) -> [SQLValue] {
        table.columns.map { columnValue(record.values[$0.slot], slot: $0.slot, in: table, dialect) }
    }

    private func writeJoins(
        _ record: StoreRecord, _ table: Table, _ sql: TableStatements, _ database: any SQLDatabase, replacing: Bool
    ) throws {
        let owner = SQLValue.integer(record.objectID.key)
        for (join, joinSQL) in zip(table.joins, sql.joins) {
            if replacing { try database.run(joinSQL.deleteOwner, [owner]) }
            guard case .objects(let members) = record.values[join.slot] else { continue }
            for (position, member) in members.enumerated() {
                try database.run(
                    joinSQL.insert,
                    [owner, .integer(Int64(position)), Self.referenceValue(member, polymorphic: join.isPolymorphic)])
            }
        }
    }
}
