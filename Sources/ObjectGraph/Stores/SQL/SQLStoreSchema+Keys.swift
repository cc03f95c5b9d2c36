extension SQLStoreSchema {
    /// Gives back the keys of the last reserved blocks that the closing container did not use,
    /// when no other process reserved keys after them: a store opened, written and closed by one
    /// process keeps dense keys, as the file stores do. Nothing is given back when another
    /// process migrated the store since it was opened at `generation`.
    func releaseUnusedKeys(
        _ reservedKeyEnds: [String: Int64], written: WrittenState, generation: Int64, in connection: any SQLDatabase
    ) throws {
        guard !reservedKeyEnds.isEmpty else { return }
        let dialect = connection.dialect
        let keys = dialect.quote(Self.keysTable)
        try connection.writeTransaction {
            guard try Self.generation(connection) == generation else { return }
            for (entity, end) in reservedKeyEnds {
                guard let info = model.info(named: entity) else { continue }
                let persisted = try connection.rows(
                    "SELECT next FROM \(keys) WHERE entity = \(dialect.placeholder(1))", [.text(entity)]
                ).first?.first?.integer
                guard persisted == end else { continue }
                let stored =
                    try connection.rows(
                        "SELECT MAX(\(dialect.quote(Self.keyColumn))) FROM \(dialect.quote(tables[info.index].name))"
                    ).first?.first?.integer ?? 0
                let next = max(written.nextKeys[entity] ?? 1, stored + 1)
                try connection.run(
                    "UPDATE \(keys) SET next = \(dialect.placeholder(1)) WHERE entity = \(dialect.placeholder(2))",
                    [.integer(next), .text(entity)])
            }
        }
    }
}
