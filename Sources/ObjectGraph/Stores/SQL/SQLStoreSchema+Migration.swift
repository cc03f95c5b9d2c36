import Foundation

extension SQLStoreSchema {
    /// The author of the history transaction that marks a migration (it lists no changes).
    static let migrationAuthor = "objectgraph.migration"
    /// The metadata row counting the migrations the store has had (0 when absent).
    static let generationName = "generation"

    /// Creates the schema, checks it against the model, or migrates the stored data to the model
    /// as `migration` says. Run it inside the open's transaction (a write transaction when
    /// `create`), so that a migration is one transaction: all of it or, if it throws or the
    /// process dies, none of it.
    ///
    /// A migration reads every row with the stored schema, migrates the snapshot in memory (the
    /// container's staged plan, or inferred), then rewrites the tables whose layout or rows
    /// changed (dropped and created again, then filled), keeping the others as they are, and
    /// records the new schema and a new generation. Keys, versions and store
    /// metadata carry over; history is kept (see ``rewriteHistory(stored:_:)``).
    ///
    /// - Parameter backUp: Called before anything is changed, when `migration.keepsBackup`.
    /// - Returns: The migrated snapshot when `create` is false (a read-only store migrates in
    ///   memory and writes nothing); otherwise `nil`, and the tables hold the model's data.
    /// - Throws: `.modelMismatch` when the model differs and `migration` is disabled, or when the
    ///   migration cannot be made (naming the entity and property); what ``prepare(_:url:create:)`` throws.
    func prepare(
        _ database: any SQLDatabase, url: URL, create: Bool, migration: MigrationOptions, backUp: () throws -> Void
    ) throws -> StoreSnapshot? {
        let dialect = database.dialect
        guard try !database.rows(dialect.tableExistsQuery, [.text(Self.metadataTable)]).isEmpty else {
            try prepare(database, url: url, create: create)
            return nil
        }
        let stored = try Self.storedEntities(database, url: url)
        if create { try upgradeFormat(database) }
        guard StoreMigrator.needsMigration(stored, to: model, migration) else {
            try StoreSchema.check(stored, against: model)
            if create { try createMissingIndexes(database) }
            return nil
        }
        let source = try SQLStoreSchema(model: try StoreMigrator.sourceModel(stored, target: model))
        let old = try source.readSnapshot(database, statements: source.statements(dialect), url: url)
        let migrated = try StoreMigrator.migrate(old, to: model, options: migration)
        guard create else { return migrated }
        if migration.keepsBackup { try backUp() }
        try rewrite(from: source, old, to: migrated, database, url: url)
        try rewriteHistory(stored: stored, database)
        try recordSchema(database)
        return nil
    }

    /// The migration count of the store (the `generation` metadata row; 0 before any).
    static func generation(_ database: any SQLDatabase) throws -> Int64 {
        let value = try database.rows(
            "SELECT value FROM \(database.dialect.quote(metadataTable)) WHERE name = \(database.dialect.placeholder(1))",
            [.text(generationName)]
        ).first?.first?.text
        return value.flatMap { Int64($0) } ?? 0
    }

    /// Checks, inside a transaction, that no other process migrated the store since it was opened
    /// at `generation`.
    ///
    /// - Throws: `.modelMismatch` if one did.
    static func checkGeneration(_ generation: Int64, _ database: any SQLDatabase, url: URL) throws {
        guard try Self.generation(database) == generation else {
            throw PersistenceError.storeMigratedByAnotherProcess(url)
        }
    }

    /// Replaces the tables of `source` whose layout or rows the migration changed with tables of
    /// this schema holding `new`'s rows, and sets the next keys of the model's entities.
    private func rewrite(
        from source: SQLStoreSchema, _ old: StoreSnapshot, to new: StoreSnapshot, _ database: any SQLDatabase,
        url: URL
    ) throws {
        let dialect = database.dialect
        let q = dialect.quote
        var oldTables: [String: Table] = [:]
        for table in source.tables { oldTables[table.name] = table }
        var kept: Set<String> = []
        for table in tables {
            guard let previous = oldTables[table.name],
                source.createStatements(of: previous, dialect) == createStatements(of: table, dialect),
                Self.sameRecords(of: table.name, in: old, and: new)
            else { continue }
            kept.insert(table.name)
        }
        // Drop first: a new table may take the name of a dropped one.
        for table in source.tables where !kept.contains(table.name) {
            for join in table.joins { try database.execute("DROP TABLE \(q(join.name))") }
            try database.execute("DROP TABLE \(q(table.name))")
        }
        var records: [StoreRecord] = []
        for table in tables where !kept.contains(table.name) {
            for statement in createStatements(of: table, dialect) { try database.execute(statement) }
            new.forEachRecord(ofEntity: table.name) { records.append($0) }
        }
        var written = WrittenState(nextKeys: [:], metadata: old.metadata)
        _ = try write(
            StoreChangeSet(inserted: records, updated: [], deleted: [], snapshot: new), to: database,
            statements: statements(dialect), url: url, written: &written)
        let names = Set(model.infos.map(\.name))
        for entity in try readNextKeys(database).keys where !names.contains(entity) {
            try database.run(
                "DELETE FROM \(q(Self.keysTable)) WHERE entity = \(dialect.placeholder(1))", [.text(entity)])
        }
    }

    /// Whether `old` and `new` hold the same records (keys, versions and values) of `entity`.
    private static func sameRecords(of entity: String, in old: StoreSnapshot, and new: StoreSnapshot) -> Bool {
        guard old.count(ofEntity: entity) == new.count(ofEntity: entity) else { return false }
        var same = true
        new.forEachRecord(ofEntity: entity) { record in
            if same, old.record(for: record.objectID) != record { same = false }
        }
        return same
    }

    /// Keeps the persistent history readable with the model: changes of a renamed entity are
    /// renamed (as the inferred mapping renames them), changes of an entity the model no longer
    /// has are deleted, and a transaction by ``migrationAuthor`` without changes marks the
    /// migration. Tokens keep counting; changed property names are kept as they were recorded.
    private func rewriteHistory(stored: [EntityDescription], _ database: any SQLDatabase) throws {
        let dialect = database.dialect
        let changes = dialect.quote(Self.changesTable)
        // Stored entity name → model entity name. A staged plan's renames are not known here:
        // entities keep their names when both schemas have them.
        var renames: [String: String] = [:]
        if let mapping = try? SchemaMapping.infer(from: stored, to: model) {
            for entity in mapping.entities { if let source = entity.source { renames[source] = entity.name } }
        } else {
            let names = Set(model.infos.map(\.name))
            for entity in stored where names.contains(entity.name) { renames[entity.name] = entity.name }
        }
        var dropped: [String] = []
        try database.forEachRow("SELECT DISTINCT entity FROM \(changes)") { row in
            if let entity = row.column(0).text, renames[entity] == nil { dropped.append(entity) }
        }
        for entity in dropped {
            try database.run("DELETE FROM \(changes) WHERE entity = \(dialect.placeholder(1))", [.text(entity)])
        }
        let renamed = renames.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
        if !renamed.isEmpty {
            // One statement, so that two entities that swapped names swap in the history too.
            var values: [SQLValue] = []
            var cases: [String] = []
            for (from, to) in renamed {
                cases.append(
                    "WHEN \(dialect.placeholder(values.count + 1)) THEN \(dialect.placeholder(values.count + 2))")
                values += [.text(from), .text(to)]
            }
            let list = renamed.indices.map { dialect.placeholder($0 * 2 + 1) }.joined(separator: ", ")
            try database.run(
                "UPDATE \(changes) SET entity = CASE entity \(cases.joined(separator: " ")) END "
                    + "WHERE entity IN (\(list))", values)
        }
        try database.run(
            "INSERT INTO \(dialect.quote(Self.transactionsTable)) (token, timestamp, author) "
                + "VALUES (\(dialect.placeholders(3)))",
            [
                .integer(try lastHistoryToken(database) + 1), .real(Date().timeIntervalSinceReferenceDate),
                .text(Self.migrationAuthor),
            ])
    }

    /// Records the model's schema in place of the stored one and raises the generation, which
    /// every open container checks before it reads other processes' saves or writes its own.
    private func recordSchema(_ database: any SQLDatabase) throws {
        let dialect = database.dialect
        let upsert =
            "INSERT INTO \(dialect.quote(Self.metadataTable)) (name, value) VALUES (\(dialect.placeholders(2))) "
            + "ON CONFLICT (name) DO UPDATE SET value = excluded.value"
        let schema = String(decoding: StoreSchema.encode(model.entities), as: UTF8.self)
        try database.run(upsert, [.text("schema"), .text(schema)])
        try database.run(upsert, [.text(Self.generationName), .text(String(try Self.generation(database) + 1))])
    }

    /// Creates the fetch indexes that a store written before they were made in SQL lacks.
    private func createMissingIndexes(_ database: any SQLDatabase) throws {
        for table in tables {
            for statement in fetchIndexStatements(of: table, database.dialect, ifNotExists: true) {
                try database.execute(statement)
            }
        }
    }
}
