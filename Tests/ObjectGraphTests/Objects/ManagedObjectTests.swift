import Foundation
import ObjectGraph
import Testing

@Suite struct ManagedObjectTests {
    // MARK: - State

    @Test func newObjectIsInsertedWithPermanentID() throws {
        let (_, context) = try makeContext()
        let fruit = makeFruit(context, "apple")
        #expect(fruit.isInserted && fruit.hasChanges && !fruit.isUpdated && !fruit.isDeleted)
        #expect(fruit.managedObjectContext === context)
        #expect(fruit.objectID.entityName == "Fruit" && fruit.objectID.key > 0)
        let id = fruit.objectID
        try context.save()
        #expect(fruit.objectID == id)
        #expect(!fruit.isInserted && !fruit.hasChanges)
    }

    @Test func changingAndRestoringValueTracksUpdates() throws {
        let (_, context) = try makeContext()
        let fruit = makeFruit(context, "apple", price: 100)
        try context.save()
        fruit.price = 150
        #expect(fruit.isUpdated && fruit.hasChanges)
        #expect(fruit.changedValues().keys.sorted() == ["price"])
        #expect(fruit.changedValues()["price"] as? Int64 == 150)
        #expect(fruit.committedValues(forKeys: ["price"])["price"] as? Int64 == 100)
        fruit.price = 100
        #expect(!fruit.isUpdated && !context.hasChanges)
        #expect(fruit.changedValues().isEmpty)
    }

    @Test func committedValuesOfNewObjectAreEmpty() throws {
        let (_, context) = try makeContext()
        let fruit = makeFruit(context, "apple")
        #expect(fruit.committedValues(forKeys: nil).isEmpty)
        #expect(Set(fruit.changedValues().keys) == ["name", "price"])
        try context.save()
        let committed = fruit.committedValues(forKeys: nil)
        #expect(committed["name"] as? String == "apple")
        #expect(committed.keys.count == 4)
    }

    @Test func untypedEntitiesWorkThroughKeyValueAccess() throws {
        let person = EntityDescription(
            name: "Person",
            attributes: [
                AttributeDescription(name: "email", type: .string),
                AttributeDescription(name: "age", type: .integer16, isOptional: true),
            ])
        let container = try PersistentContainer(
            model: try ManagedObjectModel(entities: [person]), storeDescription: .inMemory)
        let context = container.newContext()
        let entity = try #require(context.model.entity(named: "Person"))
        let object = ManagedObject(entity: entity, insertInto: context)
        try object.setValue("ada@example.com", forKey: "email")
        try object.setValue(36, forKey: "age")
        try context.save()
        let fetched = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        #expect(fetched.count == 1)
        #expect(try fetched[0].value(forKey: "email") as? String == "ada@example.com")
        #expect(try fetched[0].value(forKey: "age") as? Int16 == 36)
    }

    @Test func detachedObjectCanBeInsertedLater() throws {
        let (_, context) = try makeContext()
        let entity = try #require(TestModels.fruits.entity(named: "Fruit"))
        let fruit = Fruit(entity: entity, insertInto: nil)
        fruit.name = "later"
        #expect(fruit.managedObjectContext == nil && !fruit.isInserted)
        context.insert(fruit)
        #expect(fruit.isInserted && fruit.objectID.key > 0)
        try context.save()
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["later"])
    }

    @Test func objectsHashByIdentityAndIdentifyByID() throws {
        let (_, context) = try makeContext()
        let a = makeFruit(context, "a")
        let b = makeFruit(context, "a")
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
        #expect(a.id == ObjectIdentifier(a))
        #expect(a.description.contains("Fruit"))
    }

    // MARK: - Lifecycle hooks

    @Test func hooksRunInOrder() throws {
        let store = InMemoryStore()
        do {
            let container = try PersistentContainer(model: TestModels.samples, store: store)
            let context = container.newContext()
            let item = Journaled(context: context)
            #expect(item.events == ["awakeFromInsert"])
            try context.save()
            #expect(item.events == ["awakeFromInsert", "willSave", "didSave"])
            item.title = "changed"
            try context.save()
            #expect(item.events.suffix(2) == ["willSave", "didSave"])
        }
        let container = try PersistentContainer(model: TestModels.samples, store: store)
        let fetched = try container.newContext().fetch(Journaled.fetchRequest())
        #expect(fetched.first?.events == ["awakeFromFetch"])
    }

    @Test func validateForSaveRefusesTheSave() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let item = Journaled(context: context)
        item.title = "invalid"
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.key == "title")
        #expect(error?.objectID == item.objectID)
        #expect(item.isInserted && context.hasChanges)
        item.title = "fine"
        try context.save()
    }

    // MARK: - ObjectID

    @Test func objectIDRoundTripsThroughURIAndCodable() throws {
        let id = ObjectID(entityName: "Fruit Basket", key: 42)
        #expect(id.uriRepresentation.absoluteString == "x-objectgraph:///Fruit%20Basket/p42")
        #expect(ObjectID(uriRepresentation: id.uriRepresentation) == id)
        #expect(ObjectID(uriRepresentation: URL(string: "https://example.com/Fruit/p1")!) == nil)
        #expect(ObjectID(uriRepresentation: URL(string: "x-objectgraph:///Fruit/q1")!) == nil)
        #expect(ObjectID(uriRepresentation: URL(string: "x-objectgraph:///Fruit/p0")!) == nil)
        let data = try JSONEncoder().encode(id)
        #expect(try JSONDecoder().decode(ObjectID.self, from: data) == id)
        #expect(ObjectID(entityName: "A", key: 1) != ObjectID(entityName: "B", key: 1))
        #expect(id.description == "Fruit Basket/42")
    }
}
