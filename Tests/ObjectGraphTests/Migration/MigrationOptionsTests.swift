import Foundation
import ObjectGraph
import Testing

@Suite struct MigrationOptionsTests {
    /// Version 1 with one more optional attribute: the smallest inferred change.
    private func withNote() throws -> ManagedObjectModel {
        var entities = try PeopleV1.model().entities
        entities[0].attributes.append(AttributeDescription(name: "note", type: .string, isOptional: true))
        return try ManagedObjectModel(entities: entities)
    }

    // MARK: - Modes

    @Test func automaticIsTheDefault() {
        #expect(StoreDescription.inMemory.migration == .automatic)
        #expect(MigrationOptions().mode == .automatic)
        #expect(JSONFileStore(url: URL(fileURLWithPath: "/tmp/x.json")).migration.mode == .automatic)
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func disabledMigrationIsAModelMismatchThatLeavesTheStore(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let before = try fixture.bytes()
        let error = #expect(throws: PersistenceError.self) { try fixture.open(try withNote(), .disabled) }
        #expect(error?.code == .modelMismatch)
        #expect(error?.detailedErrors.contains { $0.message.contains("'Person.note' is in the model") } == true)
        #expect(try fixture.bytes() == before)
        #expect(try fetchAll("Person", try fixture.open(try PeopleV1.model()).newContext()).count == 3)
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func eraseOnSchemaChangeStartsEmpty(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        var entities = try PeopleV1.model().entities
        entities[0].attributes[0].type = .date  // not even migratable
        let changed = try ManagedObjectModel(entities: entities)
        do {
            let context = try fixture.open(changed, .eraseOnSchemaChange).newContext()
            #expect(try fetchAll("Person", context, sortedBy: "age").isEmpty)
        }
        let context = try fixture.open(changed, .disabled).newContext()
        #expect(try fetchAll("Pet", context).isEmpty, "the erased store was written with the new schema")
    }

    @Test(arguments: [MigrationStoreKind.json, .binary, .sqlite])
    func eraseLeavesAnUnchangedStoreAlone(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let context = try fixture.open(try PeopleV1.model(), .eraseOnSchemaChange).newContext()
        #expect(try fetchAll("Person", context).count == 3)
    }

    // MARK: - Backup

    @Test(arguments: [MigrationStoreKind.json, .binary])
    func keepsABackupOfTheOldFile(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let before = try fixture.bytes()
        _ = try fixture.open(try withNote(), MigrationOptions(keepsBackup: true))
        let backup = MigrationOptions.backupURL(for: fixture.url!)
        #expect(Array(try Data(contentsOf: backup)) == before)
        #expect(try fixture.bytes() != before)
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test(arguments: [MigrationStoreKind.json, .binary, .sqlite])
    func noBackupUnlessAsked(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        _ = try fixture.open(try withNote())
        #expect(!FileManager.default.fileExists(atPath: MigrationOptions.backupURL(for: fixture.url!).path))
    }

    // MARK: - Progress

    @Test(arguments: MigrationStoreKind.allCases)
    func progressReportsEveryObjectOnce(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let reports = Locked<[MigrationProgress]>([])
        var options = MigrationOptions.automatic
        options.progress = { progress in reports.withLock { $0.append(progress) } }
        _ = try fixture.open(try withNote(), options)
        let last = try #require(reports.withLock { $0.last })
        #expect(last.completedObjects == 6)
        #expect(last.totalObjects == 6)
        #expect(last.fractionCompleted == 1)
    }

    @Test func storeDescriptionPassesItsOptionsToTheStore() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("people.json")
        try PeopleV1.seed(try PersistentContainer(model: try PeopleV1.model(), storeDescription: .jsonFile(url)))
        var description = StoreDescription.jsonFile(url)
        description.migration = .disabled
        #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: try withNote(), storeDescription: description)
        }
        description.migration = .automatic
        #expect(
            try PersistentContainer(model: try withNote(), storeDescription: description).committedSnapshot().count == 6
        )
    }

    // MARK: - Dry run

    @Test func changesCountTheObjectsTheyTouch() throws {
        let container = try PersistentContainer(model: try PeopleV1.model(), storeDescription: .inMemory)
        try PeopleV1.seed(container)
        let changes = try SchemaMigration.changes(migrating: container.committedSnapshot(), to: try PeopleV2.model())
        let text = changes.map(\.description)
        #expect(text.contains("entity 'Human' renamed from 'Person' (3 objects)"))
        #expect(text.contains("entity 'Toy' added (0 objects)"))
        #expect(text.contains("property 'Human.age' widened from integer16 to integer64 (3 objects)"))
        #expect(text.contains("property 'Pet.keeper' renamed from 'owner' (3 objects)"))
    }
}
