import Foundation
import ObjectGraph
import Testing

/// Three versions of a contacts model: version 2 adds first and last names, filled by a custom
/// stage from the full name; version 3 drops the full name and renames the last name.
enum ContactsPlan: SchemaMigrationPlan {
    static func v1() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Contact", attributes: [AttributeDescription(name: "name", type: .string)])
        ])
    }

    static func v2() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Contact",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "firstName", type: .string, isOptional: true),
                    AttributeDescription(name: "lastName", type: .string, isOptional: true),
                ])
        ])
    }

    static func v3() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Contact",
                attributes: [
                    AttributeDescription(name: "firstName", type: .string),
                    AttributeDescription(name: "surname", type: .string, renamingIdentifier: "lastName"),
                ])
        ])
    }

    static var versions: [ManagedObjectModel] { get throws { [try v1(), try v2(), try v3()] } }

    static var stages: [MigrationStage] {
        get throws {
            [
                .custom(
                    from: try v1(), to: try v2(), willMigrate: nil,
                    didMigrate: { context in
                        for contact in try fetchAll("Contact", context) {
                            let parts = (try contact.value(forKey: "name") as? String ?? "").split(separator: " ")
                            try contact.setValue(parts.first.map(String.init) ?? "", forKey: "firstName")
                            try contact.setValue(parts.dropFirst().joined(separator: " "), forKey: "lastName")
                        }
                    }),
                .lightweight(from: try v2(), to: try v3()),
            ]
        }
    }
}

/// A plan whose custom stage fails.
enum FailingPlan: SchemaMigrationPlan {
    struct StageFailure: Error {}
    static var versions: [ManagedObjectModel] { get throws { [try ContactsPlan.v1(), try ContactsPlan.v2()] } }
    static var stages: [MigrationStage] {
        get throws {
            [
                .custom(
                    from: try ContactsPlan.v1(), to: try ContactsPlan.v2(), willMigrate: { _ in throw StageFailure() },
                    didMigrate: nil)
            ]
        }
    }
}

@Suite struct StagedMigrationTests {
    private func seedContacts(_ fixture: MigrationFixture, names: [String]) throws {
        let context = try fixture.open(try ContactsPlan.v1()).newContext()
        for name in names { try insert("Contact", into: context).setValue(name, forKey: "name") }
        try context.save()
    }

    private func contacts(_ container: PersistentContainer) throws -> [String] {
        try fetchAll("Contact", container.newContext(), sortedBy: "firstName").map {
            "\(try $0.value(forKey: "firstName") as? String ?? "?") \(try $0.value(forKey: "surname") as? String ?? "?")"
        }
    }

    // MARK: - Plans

    @Test(arguments: MigrationStoreKind.allCases)
    func aStoreTwoVersionsBehindMigratesThroughEachStage(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try seedContacts(fixture, names: ["Ada Lovelace", "Alan Turing", "Grace Brewster Hopper"])
        let container: PersistentContainer =
            kind == .inMemory
            ? try PersistentContainer(migrationPlan: ContactsPlan.self, store: fixture.store())
            : try PersistentContainer(migrationPlan: ContactsPlan.self, store: fixture.store())
        #expect(try contacts(container) == ["Ada Lovelace", "Alan Turing", "Grace Brewster Hopper"])
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test func aStoreOneVersionBehindRunsOnlyTheLastStage() throws {
        let fixture = MigrationFixture(.json)
        do {
            let context = try fixture.open(try ContactsPlan.v2()).newContext()
            let contact = insert("Contact", into: context)
            try contact.setValue("ignored", forKey: "name")
            try contact.setValue("Edsger", forKey: "firstName")
            try contact.setValue("Dijkstra", forKey: "lastName")
            try context.save()
        }
        let container = try PersistentContainer(
            migrationPlan: ContactsPlan.self, storeDescription: .jsonFile(fixture.url!))
        #expect(try contacts(container) == ["Edsger Dijkstra"])
    }

    @Test func aFailingStageLeavesTheFileAsItWas() throws {
        let fixture = MigrationFixture(.binary)
        try seedContacts(fixture, names: ["Ada Lovelace"])
        let before = try fixture.bytes()
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(migrationPlan: FailingPlan.self, store: fixture.store())
        }
        #expect(error?.code == .modelMismatch)
        #expect(error?.underlying is FailingPlan.StageFailure)
        #expect(try fixture.bytes() == before)
    }

    @Test func aStoreOfNoListedVersionIsRefused() throws {
        let fixture = MigrationFixture(.json)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let before = try fixture.bytes()
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(migrationPlan: ContactsPlan.self, store: fixture.store())
        }
        #expect(error?.message.contains("matches none of the 3 model versions") == true)
        #expect(try fixture.bytes() == before)
    }

    // MARK: - Model versions

    @Test(arguments: MigrationStoreKind.allCases)
    func modelVersionsChainRenamesThatNoSingleStepCouldInfer(kind: MigrationStoreKind) throws {
        let version = { (name: String, old: String?) in
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Note",
                    attributes: [AttributeDescription(name: name, type: .string, renamingIdentifier: old)])
            ])
        }
        let versions = [try version("title", nil), try version("heading", "title"), try version("caption", "heading")]
        let fixture = MigrationFixture(kind)
        do {
            let context = try fixture.open(versions[0]).newContext()
            try insert("Note", into: context).setValue("hello", forKey: "title")
            try context.save()
        }
        let container = try PersistentContainer(modelVersions: versions, store: fixture.store())
        let note = try #require(try fetchAll("Note", container.newContext(), sortedBy: "caption").first)
        #expect(try note.value(forKey: "caption") as? String == "hello")
    }
}
