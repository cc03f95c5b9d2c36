import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct MigrationTestingTests {
    static func notes(_ body: String, renamedFrom old: String? = nil) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: body, type: .string, renamingIdentifier: old),
                    AttributeDescription(name: "stars", type: .integer16, defaultValue: 3),
                ])
        ])
    }

    @Test(arguments: MigrationTestStore.allCases)
    func oneLineMigratesAStoreOfAnOldVersion(store: MigrationTestStore) throws {
        let v1 = try Self.notes("text")
        let container = try PersistentContainer.migratedForTesting(
            from: v1, to: try Self.notes("body", renamedFrom: "text"), in: store
        ) { context in
            let note = ManagedObject(entity: v1.entity(named: "Note")!, insertInto: context)
            try note.setValue("hello", forKey: "text")
        }
        let notes = try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(try notes.map { try $0.value(forKey: "body") as? String } == ["hello"])
    }

    @Test func aMigrationThatCannotBeDoneThrowsItsError() throws {
        var entities = try Self.notes("text").entities
        entities[0].attributes[1].type = .boolean
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer.migratedForTesting(
                from: try Self.notes("text"), to: try ManagedObjectModel(entities: entities), in: .jsonFile
            ) { context in
                _ = ManagedObject(entity: context.model.entity(named: "Note")!, insertInto: context)
            }
        }
        #expect(error?.key == "stars")
    }
}
