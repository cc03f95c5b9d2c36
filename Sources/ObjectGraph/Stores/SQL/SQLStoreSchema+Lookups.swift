extension SQLStoreSchema {
    /// The keys of the rows of the entity at `entityIndex` whose `slots` (attributes or to-one
    /// relationships, stored in columns) hold `values`: the stored objects a uniqueness
    /// constraint compares a written one with.
    func keys(entityIndex: Int, slots: [Int], equalTo values: [StoreValue], _ database: any SQLDatabase) throws
        -> [Int64]
    {
        let table = tables[entityIndex]
        let dialect = database.dialect
        let q = dialect.quote
        var terms: [String] = []
        for (offset, slot) in slots.enumerated() {
            guard let column = table.columns.first(where: { $0.slot == slot }) else { return [] }
            terms.append("\(q(column.name)) = \(dialect.placeholder(offset + 1))")
        }
        return try integers(
            "SELECT \(q(Self.keyColumn)) FROM \(q(table.name)) WHERE \(terms.joined(separator: " AND "))",
            zip(slots, values).map { columnValue($1, slot: $0, in: table, dialect) }, database)
    }

    /// The keys of the rows of the entity at `entityIndex` whose relationship at `slot` refers to
    /// one of `targets` (keys of its destination), or to any object with `targets` `nil`.
    func keys(entityIndex: Int, referringThrough slot: Int, to targets: [Int64]?, _ database: any SQLDatabase) throws
        -> [Int64]
    {
        let table = tables[entityIndex]
        let dialect = database.dialect
        let q = dialect.quote
        let key = q(Self.keyColumn)
        let query: (_ filter: String?) -> String
        if let column = table.columns.first(where: { $0.slot == slot }) {
            query = { filter in
                "SELECT \(key) FROM \(q(table.name)) WHERE \(q(column.name)) "
                    + (filter.map { "IN (\($0))" } ?? "IS NOT NULL")
            }
        } else if let join = table.joins.first(where: { $0.slot == slot }) {
            query = { filter in
                "SELECT DISTINCT owner FROM \(q(join.name))" + (filter.map { " WHERE member IN (\($0))" } ?? "")
            }
        } else if let derived = table.derived.first(where: { $0.slot == slot }) {
            let inverse = q(derived.inverseColumn)
            query = { filter in
                "SELECT DISTINCT \(inverse) FROM \(q(derived.destinationTable)) WHERE \(inverse) IS NOT NULL"
                    + (filter.map { " AND \(key) IN (\($0))" } ?? "")
            }
        } else {
            return []
        }
        let isPolymorphic =
            table.polymorphicSlots.contains(slot) || table.joins.contains { $0.slot == slot && $0.isPolymorphic }
        // Keys of several entities cannot be told apart here: every referring row (more than needed).
        guard let targets, !isPolymorphic else { return try integers(query(nil), [], database) }
        var found: [Int64] = []
        var start = 0
        while start < targets.count {
            let batch = targets[start..<min(targets.count, start + Self.keysPerQuery)]
            start += batch.count
            found += try integers(
                query(dialect.placeholders(batch.count)), batch.map { SQLValue.integer($0) }, database)
        }
        return found
    }

    private func integers(_ sql: String, _ values: [SQLValue], _ database: any SQLDatabase) throws -> [Int64] {
        var keys: [Int64] = []
        try database.forEachRow(sql, values) { row in
            if let key = try Self.selectedKey(row.column(0)) { keys.append(key) }
        }
        return keys
    }
}
