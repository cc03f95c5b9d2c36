import Foundation
import ObjectGraph
import Testing

@Suite struct InheritanceStoreTests {
    /// A file store holding one Dog and one Bird, each with a keeper.
    private func makeStoreFile(_ name: String) throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent(name)
        let container = try PersistentContainer(
            model: InheritanceModels.zoo, storeDescription: StoreDescription(url: url))
        let context = container.newContext()
        let keeper = Keeper(context: context)
        keeper.name = "Alice"
        let dog = Dog(context: context)
        dog.name = "Rex"
        dog.keeper = keeper
        let bird = Bird(context: context)
        bird.name = "Tweety"
        bird.keeper = keeper
        keeper.favourite = bird
        try context.save()
        return url
    }

    @Test func theStoredSchemaRecordsTheHierarchy() throws {
        let url = try makeStoreFile("zoo.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"superentity\": \"Mammal\""))
        #expect(text.contains("\"abstract\": true"))
        // A relationship to a parent names the entity of each object of a sub-entity.
        #expect(text.contains("[\"Bird\",1]"))
    }

    @Test(arguments: ["zoo.json", "zoo.ogdb"])
    func aStoreReadWithoutTheAppKnowsTheHierarchy(file: String) throws {
        let url = try makeStoreFile(file)
        let model = try StoreFileInspector.model(of: url)
        #expect(model.entity(named: "Dog")?.superentity?.name == "Mammal")
        #expect(model.entity(named: "Animal")?.isAbstract == true)
        #expect(model.entity(named: "Animal")?.subentities.map(\.name) == ["Mammal", "Bird"])
        #expect(model.entity(named: "Dog")?.attributes.map(\.name) == ["name", "legs", "fur", "barks"])
        let snapshot = try StoreFileInspector.snapshot(of: url)
        #expect(snapshot.danglingReferences().isEmpty)
        #expect(StoreFileInspector.verify(url) == nil)
    }

    @Test func anEntityMadeAbstractWithObjectsIsAModelMismatch() throws {
        let url = try makeStoreFile("zoo.json")
        var entities = try StoreFileInspector.model(of: url).entities
        let bird = try #require(entities.firstIndex { $0.name == "Bird" })
        entities[bird].isAbstract = true
        let changed = try ManagedObjectModel(entities: entities)
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: changed, store: JSONFileStore(url: url))
        }
        #expect(error?.code == .modelMismatch)
        // Migration takes changes of inheritance, but not objects of an entity made abstract.
        #expect(error?.message.contains("entity 'Bird' becomes abstract, but") == true)
    }

    @Test func aStoreThatReferencesAnUnrelatedEntityIsCorrupt() throws {
        let url = try makeStoreFile("zoo.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(of: "[\"Bird\",1]", with: "[\"Collar\",1]").write(
            to: url, atomically: true, encoding: .utf8)
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: InheritanceModels.zoo, store: JSONFileStore(url: url))
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("not Animal or one of its sub-entities") == true)
    }
}
