import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Testing

/// What a PostgreSQL store's migration does beyond what every store does (the shared migration
/// suites run on PostgreSQL too): one server migrates while the others wait on the store's
/// advisory lock and then find the migrated schema, containers open with the old model stop with
/// `modelMismatch`, and the backup is a schema of the old tables.
@Suite(
    .enabled(if: PostgresTestStore.isEnabled, "set OBJECTGRAPH_POSTGRES_URL (scripts/postgres-server.sh start)"),
    .dropsPostgresSchemas)
struct PostgresMigrationTests {
    /// Version 1 with one more optional attribute: the smallest inferred change.
    private func withNote() throws -> ManagedObjectModel {
        var entities = try PeopleV1.model().entities
        entities[0].attributes.append(AttributeDescription(name: "note", type: .string, isOptional: true))
        return try ManagedObjectModel(entities: entities)
    }

    /// A seeded version 1 store.
    private func seeded() throws -> MigrationFixture {
        let fixture = MigrationFixture(.postgres)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        return fixture
    }

    /// The history's transactions, oldest first, read through a store of `model` on `fixture`.
    private func history(_ fixture: MigrationFixture, _ model: ManagedObjectModel) throws
        -> [PersistentHistoryTransaction]
    {
        let store = try #require(fixture.store() as? PostgresStore)
        let container = try PersistentContainer(model: model, store: store)
        defer { withExtendedLifetime(container) {} }
        return try store.fetchHistory(after: nil)
    }

    // MARK: - One server at a time

    @Test func serversOpeningWithANewModelAtOnceMigrateOnce() throws {
        let fixture = try seeded()
        let model = try withNote()
        let failures = Locked<[String]>([])
        let containers = Locked<[PersistentContainer]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let container = try fixture.open(model)
                containers.withLock { $0.append(container) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for container in containers.withLock({ $0 }) {
            #expect(try fetchAll("Person", container.newContext()).count == 3)
        }
        let migrations = try history(fixture, model).filter { $0.author == "objectgraph.migration" }
        #expect(migrations.count == 1, "one server migrated; the others found the new schema")
    }

    @Test func aContainerStillOpenWithTheOldModelGetsModelMismatchAndWritesNothing() throws {
        let fixture = try seeded()
        let old = try fixture.open(try PeopleV1.model())
        let context = old.newContext()
        let ada = try #require(try fetchAll("Person", context, "name == 'Ada'").first)
        do {
            let migrated = try fixture.open(try withNote()).newContext()
            try fetchAll("Person", migrated, "name == 'Ada'")[0].setValue("first", forKey: "note")
            try migrated.save()
        }
        try ada.setValue("Ada L.", forKey: "name")
        let saveError = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(saveError?.code == .modelMismatch)
        #expect(saveError?.message.contains("Another process migrated") == true)
        let fetchError = #expect(throws: PersistenceError.self) { try fetchAll("Pet", old.newContext()) }
        #expect(fetchError?.code == .modelMismatch, "its queries stop too: the tables are the new model's")
        let check = try fixture.open(try withNote()).newContext()
        let stored = try #require(try fetchAll("Person", check, "note != nil").first)
        #expect(try stored.value(forKey: "name") as? String == "Ada")
    }

    // MARK: - Backup

    @Test func keepsABackupSchemaThatOpensWithTheOldModel() throws {
        let fixture = try seeded()
        let before = try fixture.bytes()
        _ = try fixture.open(try withNote(), MigrationOptions(keepsBackup: true))
        let backup = PostgresStore.backupSchema(for: fixture.schema)
        #expect(try PostgresTestStore.contents(of: backup) == before)
        let old = try PersistentContainer(
            model: try PeopleV1.model(),
            store: PostgresTestStore.makeStore(schema: backup, migration: .disabled))
        #expect(try fetchAll("Person", old.newContext()).count == 3)
        // A second migration replaces the backup with the state it migrates.
        var entities = try withNote().entities
        entities[1].attributes.append(AttributeDescription(name: "color", type: .string, isOptional: true))
        let migratedOnce = try fixture.bytes()
        _ = try fixture.open(try ManagedObjectModel(entities: entities), MigrationOptions(keepsBackup: true))
        #expect(try PostgresTestStore.contents(of: backup) == migratedOnce)
    }

    @Test func aBackupSchemaThatIsNotABackupIsRefusedAndNothingMigrates() throws {
        let fixture = try seeded()
        let connection = try PostgresTestStore.connect(schema: fixture.schema)
        defer { connection.close() }
        let backup = PostgresStore.backupSchema(for: fixture.schema)
        try connection.execute("CREATE SCHEMA \(connection.dialect.quote(backup))")
        let before = try fixture.bytes()
        let error = #expect(throws: PersistenceError.self) {
            try fixture.open(try withNote(), MigrationOptions(keepsBackup: true))
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains(backup) == true)
        #expect(try fixture.bytes() == before)
        #expect(try fetchAll("Person", try fixture.open(try PeopleV1.model(), .disabled).newContext()).count == 3)
        try connection.execute("DROP SCHEMA \(connection.dialect.quote(backup))")
    }
}
