import Foundation

extension SQLStoreSchema {
    /// How many keys one `IN (…)` list holds: below SQLite's and PostgreSQL's parameter limits.
    static let keysPerQuery = 500

    /// The current rows of `keys` of the entity at `entityIndex` (with their to-many members), in
    /// the order of `keys`; keys without a row are left out. A few statements per
    /// ``keysPerQuery`` keys, whatever the table's size.
    ///
    /// - Throws: `.corruptStore` naming `url` for a value that does not fit the model; the
    ///   database's errors.
    func readRows(
        entityIndex: Int, keys: [Int64], _ database: any SQLDatabase, statements: [TableStatements], url: URL
    ) throws -> [(key: Int64, row: EntityTable.Row)] {
        let table = tables[entityIndex]
        let decoding = rowDecoding(entityIndex: entityIndex)
        let dialect = database.dialect
        let q = dialect.quote
        var found: [Int64: EntityTable.Row] = [:]
        found.reserveCapacity(keys.count)
        var start = 0
        while start < keys.count {
            let batch = Array(keys[start..<min(keys.count, start + Self.keysPerQuery)])
            start += batch.count
            let bindings = batch.map { SQLValue.integer($0) }
            let list = dialect.placeholders(batch.count)
            let select = statements[entityIndex].selectAll.replacingOccurrences(
                of: " ORDER BY ", with: " WHERE \(q(Self.keyColumn)) IN (\(list)) ORDER BY ")
            var batchRows: [Int64: EntityTable.Row] = [:]
            try database.forEachRow(select, bindings) { row in
                let (key, decoded) = try self.decodeRow(row, decoding, dialect, url: url)
                batchRows[key] = decoded
            }
            guard !batchRows.isEmpty else { continue }
            try readMembers(into: &batchRows, of: table, database, url: url)
            for (key, row) in batchRows {
                try check(row, key: key, decoding, url: url)
                found[key] = row
            }
        }
        return keys.compactMap { key in found[key].map { (key, $0) } }
    }
}

extension SQLStoreSchema {
    /// A snapshot with the next keys and store metadata and no rows: what a container that
    /// queries the store starts from.
    func readEmptySnapshot(_ database: any SQLDatabase) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot(rowCacheOf: model)
        for (entity, next) in try readNextKeys(database) {
            snapshot.reserveKeys(ofEntity: entity, below: next)
        }
        for table in tables {
            // Keys of rows written by a version that did not record them.
            let maximum = try database.rows(
                "SELECT MAX(\(database.dialect.quote(Self.keyColumn))) FROM \(database.dialect.quote(table.name))"
            ).first?.first
            let stored = try maximum.flatMap { try Self.selectedKey($0) } ?? 0
            snapshot.reserveKeys(ofEntity: table.name, below: stored + 1)
        }
        snapshot.metadata = try readStoreMetadata(database)
        return snapshot
    }
}

extension SQLStoreSchema {
    /// Fills in the to-many members of `rows` (by key, rows of `table`), a few statements per
    /// ``keysPerQuery`` rows.
    ///
    /// - Throws: `.corruptStore` naming `url` for a member that is not a key; the database's
    ///   errors.
    func readMembers(
        into rows: inout [Int64: EntityTable.Row], of table: Table, _ database: any SQLDatabase, url: URL
    ) throws {
        guard !table.joins.isEmpty || !table.derived.isEmpty else { return }
        let dialect = database.dialect
        let q = dialect.quote
        let keys = Array(rows.keys)
        var start = 0
        while start < keys.count {
            let batch = keys[start..<min(keys.count, start + Self.keysPerQuery)]
            start += batch.count
            let bindings = batch.map { SQLValue.integer($0) }
            let list = dialect.placeholders(batch.count)
            for join in table.joins {
                var members: [Int64: [ObjectID]] = [:]
                try database.forEachRow(
                    "SELECT owner, member FROM \(q(join.name)) WHERE owner IN (\(list)) ORDER BY owner, position",
                    bindings
                ) { row in
                    guard let owner = row.column(0).integer, let member = join.member(row.column(1)) else {
                        throw PersistenceError.corruptSQLStore(url, "the join table \(join.name) holds an invalid key")
                    }
                    members[owner, default: []].append(member)
                }
                for key in batch { rows[key]?.values[join.slot] = .objects(members[key] ?? []) }
            }
            for derived in table.derived {
                var members: [Int64: [ObjectID]] = [:]
                try database.forEachRow(
                    "SELECT \(q(derived.inverseColumn)), \(q(Self.keyColumn)) FROM \(q(derived.destinationTable)) "
                        + "WHERE \(q(derived.inverseColumn)) IN (\(list)) "
                        + "ORDER BY \(q(derived.inverseColumn)), \(q(Self.keyColumn))",
                    bindings
                ) { row in
                    guard let owner = row.column(0).integer, let member = row.column(1).integer else {
                        throw PersistenceError.corruptSQLStore(
                            url, "\(derived.destinationTable).\(derived.inverseColumn) holds a non-integer key")
                    }
                    members[owner, default: []].append(ObjectID(entityName: derived.destinationTable, key: member))
                }
                for key in batch { rows[key]?.values[derived.slot] = .objects(members[key] ?? []) }
            }
        }
    }

    /// The columns a query selects for ``readRows(entityIndex:query:bindings:_:url:)``: the
    /// entity's key, version and columns, of the table aliased `alias`.
    func rowColumns(entityIndex: Int, alias: String, _ dialect: SQLDialect) -> String {
        ([Self.keyColumn, Self.versionColumn] + tables[entityIndex].columns.map(\.name))
            .map { "\(alias).\(dialect.quote($0))" }.joined(separator: ", ")
    }

    /// The rows `query` selects (its columns ``rowColumns(entityIndex:alias:_:)``), in its
    /// order, with their to-many members.
    ///
    /// - Throws: `.corruptStore` naming `url` for a value that does not fit the model; the
    ///   database's errors.
    func readRows(
        entityIndex: Int, query: String, bindings: [SQLValue], _ database: any SQLDatabase, url: URL
    ) throws -> [(key: Int64, row: EntityTable.Row)] {
        let table = tables[entityIndex]
        let decoding = rowDecoding(entityIndex: entityIndex)
        let dialect = database.dialect
        var found: [(key: Int64, row: EntityTable.Row)] = []
        try database.forEachRow(query, bindings) { row in
            found.append(try self.decodeRow(row, decoding, dialect, url: url))
        }
        if !table.joins.isEmpty || !table.derived.isEmpty {
            // Only rows with to-many relationships need finding by key, to be given their members.
            var rows = Dictionary(found.lazy.map { ($0.key, $0.row) }, uniquingKeysWith: { first, _ in first })
            try readMembers(into: &rows, of: table, database, url: url)
            for index in found.indices { found[index].row = rows[found[index].key] ?? found[index].row }
        }
        for (key, row) in found { try check(row, key: key, decoding, url: url) }
        return found
    }
}
