import Foundation

extension SQLStoreSchema {
    /// Creates the schema in a database that has none, or checks the stored schema against the
    /// model. Run it inside a write transaction, so that two processes opening a new file at
    /// once create it once.
    ///
    /// - Throws: `.modelMismatch` for a store written with another model; `.unsupportedFormat`
    ///   for a database that holds other tables or a newer format; `.corruptStore` for an
    ///   unreadable stored schema; `.readOnlyStore`-free: with `create` false an empty database
    ///   is `.unsupportedFormat`.
    func prepare(_ database: any SQLDatabase, url: URL, create: Bool) throws {
        let dialect = database.dialect
        guard try !database.rows(dialect.tableExistsQuery, [.text(Self.metadataTable)]).isEmpty else {
            guard create, try database.rows(dialect.anyTableQuery).isEmpty else {
                throw PersistenceError.notAStore(url, expected: "an ObjectGraph \(dialect.name) store")
            }
            for statement in createStatements(dialect) { try database.execute(statement) }
            let insert =
                "INSERT INTO \(dialect.quote(Self.metadataTable)) (name, value) VALUES (\(dialect.placeholders(2)))"
            try database.run(insert, [.text("format"), .text(String(Self.formatVersion))])
            let schema = String(decoding: StoreSchema.encode(model.entities), as: UTF8.self)
            try database.run(insert, [.text("schema"), .text(schema)])
            return
        }
        try StoreSchema.check(try Self.storedEntities(database, url: url), against: model)
        if create { try upgradeFormat(database) }
    }

    /// The schema a SQL store was written with (its entities, as ``StoreSchema`` encodes them):
    /// what a migration reads to map the stored data onto a new model.
    ///
    /// - Throws: `.unsupportedFormat` for a newer format version, `.corruptStore` for a missing
    ///   or unreadable schema.
    static func storedEntities(_ database: any SQLDatabase, url: URL) throws -> [EntityDescription] {
        var values: [String: String] = [:]
        try database.forEachRow(
            "SELECT name, value FROM \(database.dialect.quote(metadataTable)) WHERE name IN ('format', 'schema')"
        ) { row in
            if let name = row.column(0).text, let value = row.column(1).text { values[name] = value }
        }
        guard let format = values["format"].flatMap({ Int($0) }) else {
            throw PersistenceError.corruptSQLStore(url, "its format version is missing")
        }
        guard format <= formatVersion else {
            throw PersistenceError.unsupportedVersion(url, version: format, supported: formatVersion)
        }
        guard let schema = values["schema"] else {
            throw PersistenceError.corruptSQLStore(url, "its schema is missing")
        }
        return try StoreSchema.decode(Array(schema.utf8), url: url)
    }
}
