import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a SQLite store's migration does beyond what every store does (the shared migration
/// suites run on SQLite too): keys, versions and history carry over, the backup is a store of the
/// old schema, a read-only store migrates in memory, and a container or process still open with
/// the old model gets `modelMismatch` instead of writing old rows into the new tables.
@Suite struct SQLiteMigrationTests {
    /// Version 1 with one more optional attribute: the smallest inferred change.
    private func withNote() throws -> ManagedObjectModel {
        var entities = try PeopleV1.model().entities
        entities[0].attributes.append(AttributeDescription(name: "note", type: .string, isOptional: true))
        return try ManagedObjectModel(entities: entities)
    }

    /// The seeded store, with Ada saved a second time (version 2).
    private func seeded() throws -> MigrationFixture {
        let fixture = MigrationFixture(.sqlite)
        let container = try fixture.open(try PeopleV1.model())
        try PeopleV1.seed(container)
        let context = container.newContext()
        try fetchAll("Person", context, "name == 'Ada'")[0].setValue(Int64(37), forKey: "age")
        try context.save()
        return fixture
    }

    // MARK: - Keys, versions and history

    @Test func keysAndVersionsCarryOverAndNewKeysFollowTheOldOnes() throws {
        let fixture = try seeded()
        let before = try fixture.open(try PeopleV1.model()).committedSnapshot()
        var expected: [Int64: Int64] = [:]
        before.forEachRecord(ofEntity: "Person") { expected[$0.objectID.key] = $0.version }
        let container = try fixture.open(try PeopleV2.model())
        var migrated: [Int64: Int64] = [:]
        container.committedSnapshot().forEachRecord(ofEntity: "Human") { migrated[$0.objectID.key] = $0.version }
        #expect(migrated == expected)
        #expect(expected.values.contains(2), "Ada's second save is kept as her version")
        let context = container.newContext()
        let human = insert("Human", into: context)
        try human.setValue("Dan", forKey: "fullName")
        try human.setValue(Int64(50), forKey: "age")
        try context.save()
        #expect(human.objectID.key > expected.keys.max()!)
    }

    @Test func historyKeepsItsTransactionsWithRenamedEntitiesAndMarksTheMigration() throws {
        let fixture = try seeded()
        let store = SQLiteStore(url: fixture.url!)
        let container = try PersistentContainer(model: try PeopleV2.model(), store: store)
        let history = try store.fetchHistory(after: nil)
        #expect(history.count == 3)
        #expect(history[0].changes.count == 6)
        #expect(Set(history[0].changes.map(\.objectID.entityName)) == ["Human", "Pet"])
        #expect(history[1].changes.map(\.objectID.entityName) == ["Human"])
        #expect(history[2].author == "objectgraph.migration")
        #expect(history[2].changes.isEmpty)
        let context = container.newContext()
        try fetchAll("Human", context, sortedBy: "fullName")[0].setValue("Adah", forKey: "fullName")
        try context.save()
        let after = try store.fetchHistory(after: history[2].token)
        #expect(after.map { $0.changes.map(\.objectID) } == [[history[1].changes[0].objectID]])
    }

    @Test func historyOfARemovedEntityIsDropped() throws {
        let fixture = try seeded()
        var entities = try PeopleV1.model().entities
        entities[0].relationships = []
        let store = SQLiteStore(url: fixture.url!)
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: [entities[0]]), store: store)
        defer { withExtendedLifetime(container) {} }
        let history = try store.fetchHistory(after: nil)
        #expect(history.flatMap(\.changes).allSatisfy { $0.objectID.entityName == "Person" })
        #expect(history[0].changes.count == 3)
    }

    // MARK: - Backup and read-only stores

    @Test func keepsABackupThatOpensWithTheOldModel() throws {
        let fixture = try seeded()
        _ = try fixture.open(try withNote(), MigrationOptions(keepsBackup: true))
        let backup = MigrationOptions.backupURL(for: fixture.url!)
        let old = try PersistentContainer(
            model: try PeopleV1.model(), store: SQLiteStore(url: backup, migration: .disabled))
        #expect(try fetchAll("Person", old.newContext()).map { try $0.value(forKey: "age") as? Int16 } == [37, 29, 41])
        #expect(try fetchAll("Pet", old.newContext()).count == 3)
        #expect(try StoreFileInspector.model(of: fixture.url!).entity(named: "Person")?.attributesByName["note"] != nil)
    }

    @Test func aReadOnlyStoreMigratesInMemoryAndWritesNothing() throws {
        let fixture = try seeded()
        let before = try fixture.bytes()
        let container = try PersistentContainer(
            model: try withNote(), store: SQLiteStore(url: fixture.url!, isReadOnly: true))
        let people = try fetchAll("Person", container.newContext())
        #expect(people.count == 3)
        #expect(try people.allSatisfy { try $0.value(forKey: "note") == nil })
        #expect(try fixture.bytes() == before)
        #expect(try fetchAll("Person", try fixture.open(try PeopleV1.model(), .disabled).newContext()).count == 3)
    }

    // MARK: - Containers and processes with the old model

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
        // Its fetches read the snapshot it has (the coordinator does not merge the migration);
        // its save is refused.
        try ada.setValue("Ada L.", forKey: "name")
        let saveError = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(saveError?.code == .modelMismatch)
        #expect(saveError?.message.contains("Another process migrated") == true)
        #expect(saveError?.fileURL == fixture.url)
        let check = try fixture.open(try withNote()).newContext()
        let stored = try #require(try fetchAll("Person", check, "note != nil").first)
        #expect(try stored.value(forKey: "name") as? String == "Ada")
    }

    @Test func aWriterProcessWithTheOldModelStopsWithModelMismatch() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("shared.sqlite")
        let writer = try SQLiteWriterProcess(url: url)
        defer { writer.stop() }
        let acknowledged = writer.waitForSave(after: 19)
        #expect(acknowledged >= 20, "the writer saved \(acknowledged) times")

        let container = try PersistentContainer(
            model: try MigrationCrashTests.migratedModel(), store: SQLiteStore(url: url, busyTimeout: .seconds(10)))
        #expect(writer.waitForExit(seconds: 10) == 1, "the writer went on saving after the migration")
        let message = writer.errorOutput()
        #expect(message.contains("modelMismatch") && message.contains("Another process migrated"), "\(message)")

        // The store holds every save the writer made before the migration, and nothing after it.
        let context = container.newContext()
        let numbers = try fetchAll("Entry", context, sortedBy: "number").map {
            try $0.value(forKey: "number") as? Int64
        }
        #expect(numbers.count >= Int(acknowledged))
        #expect(numbers == (1...Int64(numbers.count)).map { $0 })
        let tally = try #require(try fetchAll("Tally", context, sortedBy: "count").first)
        #expect(try tally.value(forKey: "count") as? Int64 == Int64(numbers.count))
    }
}
