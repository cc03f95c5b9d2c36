import Foundation

extension SQLStoreSchema {
    /// Reads every row of every table into a snapshot, with the next keys and store metadata.
    ///
    /// Run it in a read transaction so that it sees one state.
    ///
    /// - Throws: `.corruptStore` naming `url` for a value that does not fit its column's type, a
    ///   key out of range, or a row the snapshot refuses; the connection's errors.
    /// With `readingNextKeys` false, the next keys are those the rows imply (a container that
    /// reserved blocks of keys keeps its own).
    func readSnapshot(
        _ database: any SQLDatabase, statements: [TableStatements], url: URL, readingNextKeys: Bool = true
    ) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot(model: model)
        for (table, sql) in zip(tables, statements) {
            let info = model.infos[table.entityIndex]
            var toMany: [Int: [Int64: [ObjectID]]] = [:]
            for (join, joinSQL) in zip(table.joins, sql.joins) {
                var members: [Int64: [ObjectID]] = [:]
                try database.forEachRow(joinSQL.selectAll) { row in
                    guard let owner = row.column(0).integer, let member = join.member(row.column(1)) else {
                        throw PersistenceError.corruptSQLStore(url, "the join table \(join.name) holds an invalid key")
                    }
                    members[owner, default: []].append(member)
                }
                toMany[join.slot] = members
            }
            for (derived, derivedSQL) in zip(table.derived, sql.derived) {
                var members: [Int64: [ObjectID]] = [:]
                try database.forEachRow(derivedSQL) { row in
                    guard let owner = row.column(0).integer, let member = row.column(1).integer else {
                        throw PersistenceError.corruptSQLStore(
                            url, "\(derived.destinationTable).\(derived.inverseColumn) holds a non-integer key")
                    }
                    members[owner, default: []].append(ObjectID(entityName: derived.destinationTable, key: member))
                }
                toMany[derived.slot] = members
            }
            try database.forEachRow(sql.selectAll) { row in
                var record = try self.record(from: row, table, info, database.dialect, url: url)
                for (slot, members) in toMany { record.values[slot] = .objects(members[record.objectID.key] ?? []) }
                try snapshot.insert(record)
            }
        }
        if readingNextKeys {
            for (entity, next) in try readNextKeys(database) {
                snapshot.reserveKeys(ofEntity: entity, below: next)
            }
        }
        snapshot.metadata = try readStoreMetadata(database)
        return snapshot
    }

    /// The current rows of `ids` (with their to-many members); IDs without a row are left out.
    func readRecords(
        _ ids: [ObjectID], _ database: any SQLDatabase, statements: [TableStatements], url: URL
    ) throws -> [StoreRecord] {
        var records: [StoreRecord] = []
        for id in ids {
            guard let info = model.info(named: id.entityName) else { continue }
            let table = tables[info.index]
            let sql = statements[info.index]
            var found: StoreRecord?
            try database.forEachRow(sql.selectOne, [.integer(id.key)]) { row in
                found = try self.record(from: row, table, info, database.dialect, url: url)
            }
            guard var record = found else { continue }
            for (join, joinSQL) in zip(table.joins, sql.joins) {
                var members: [ObjectID] = []
                try database.forEachRow(joinSQL.selectOwner, [.integer(id.key)]) { row in
                    if let member = join.member(row.column(0)) { members.append(member) }
                }
                record.values[join.slot] = .objects(members)
            }
            for (derived, derivedSQL) in zip(table.derived, sql.derivedOne) {
                var members: [ObjectID] = []
                try database.forEachRow(derivedSQL, [.integer(id.key)]) { row in
                    if let key = try Self.selectedKey(row.column(0)) {
                        members.append(ObjectID(entityName: derived.destinationTable, key: key))
                    }
                }
                record.values[derived.slot] = .objects(members)
            }
            if let problem = info.problem(with: record.values) {
                throw PersistenceError.corruptSQLStore(url, "\(id): \(problem)")
            }
            records.append(record)
        }
        return records
    }

    /// The record of the current row of a `SELECT _key, _version, <columns>`, with empty to-many
    /// relationships.
    func record(
        from row: any SQLStatement, _ table: Table, _ info: EntityInfo, _ dialect: SQLDialect, url: URL
    ) throws
        -> StoreRecord
    {
        guard let key = row.column(0).integer, let version = row.column(1).integer else {
            throw PersistenceError.corruptSQLStore(url, "the table \(table.name) holds a non-integer key")
        }
        guard Self.isObjectKey(key) else {
            throw PersistenceError.corruptSQLStore(
                url, "the table \(table.name) holds the key \(key), outside 1...\(EntityTable.maxKey)")
        }
        let id = ObjectID(entityName: info.name, key: key)
        var values = info.defaultValues
        for (offset, (slot, name)) in table.columns.enumerated() {
            let stored = row.column(offset + 2)
            if info.isAttribute(slot) {
                let type = info.attribute(at: slot).type
                guard let value = SQLColumnCoding.decode(stored, as: type, in: dialect) else {
                    throw PersistenceError.corruptSQLStore(
                        url, "\(id).\(name) holds \(stored.kindName), not a \(type) value")
                }
                values[slot] = value
            } else if let target = Self.reference(
                stored, destination: info.relationship(at: slot).description.destination,
                polymorphic: table.polymorphicSlots.contains(slot))
            {
                values[slot] = .object(target)
            } else if stored == .null {
                values[slot] = .null
            } else {
                throw PersistenceError.corruptSQLStore(url, "\(id).\(name) holds \(stored.kindName), not a key")
            }
        }
        return StoreRecord(objectID: id, version: version, values: values)
    }

    /// The persisted next key of each entity.
    func readNextKeys(_ database: any SQLDatabase) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        try database.forEachRow("SELECT entity, next FROM \(database.dialect.quote(Self.keysTable))") { row in
            guard let entity = row.column(0).text, let next = row.column(1).integer else { return }
            // The next key is one past the last handed out: at most one past the largest key.
            guard next >= 1, next <= EntityTable.maxKey + 1 else { throw PersistenceError.outOfRangeSQLKey(next) }
            keys[entity] = next
        }
        return keys
    }

    /// The store metadata (`store.<key>` rows of the metadata table).
    func readStoreMetadata(_ database: any SQLDatabase) throws -> [String: String] {
        var metadata: [String: String] = [:]
        try database.forEachRow("SELECT name, value FROM \(database.dialect.quote(Self.metadataTable))") { row in
            if let name = row.column(0).text, name.hasPrefix("store."), let value = row.column(1).text {
                metadata[String(name.dropFirst(6))] = value
            }
        }
        return metadata
    }
}
