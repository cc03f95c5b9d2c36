extension SQLStoreEngine {
    /// Refuses, before anything is written, a change set with a value the database cannot hold:
    /// store metadata holding a NUL where text cannot (string attributes are escaped instead).
    ///
    /// - Throws: `.typeMismatch` naming the metadata key.
    func checkStorable(_ changes: StoreChangeSet) throws {
        let dialect = database.dialect
        guard !dialect.textHoldsNUL, changes.snapshot.metadata != written.metadata else { return }
        for (key, value) in changes.snapshot.metadata where key.utf8.contains(0) || value.utf8.contains(0) {
            throw PersistenceError.metadataHoldsNUL(key: key, database: dialect.name)
        }
    }

    /// Every table and index name of the schema longer than the database keeps.
    ///
    /// - Throws: `.invalidModel` naming the first such name.
    static func checkIdentifiers(_ schema: SQLStoreSchema, _ dialect: SQLDialect) throws {
        guard let limit = dialect.maximumIdentifierLength else { return }
        for table in schema.tables {
            let info = schema.model.infos[table.entityIndex]
            var names = [table.name]
            for (slot, name) in table.columns {
                names.append(name)
                if !info.isAttribute(slot) || info.attribute(at: slot).isIndexed {
                    names.append("\(table.name).\(name).index")
                }
            }
            names += info.description.uniquenessConstraints.indices.map { "\(table.name).unique\($0)" }
            for join in table.joins { names += [join.name, join.name + ".member.index"] }
            if let name = names.first(where: { $0.utf8.count > limit }) {
                throw PersistenceError.sqlIdentifierTooLong(name, limit: limit, database: dialect.name)
            }
        }
    }
}
