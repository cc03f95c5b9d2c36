import Foundation
import ObjectGraph
import Testing

/// A subclass whose `willSave()` changes values, to check that a failed save undoes it.
final class Counter: ManagedObject {
    @Attribute var saves: Int64 = 0
    @Attribute var label: String?
    @Attribute var required: String?

    override func willSave() {
        saves += 1
    }

    override func validateForSave() throws {
        if required == nil { throw PersistenceError.validation("required is missing", object: self, key: "required") }
    }
}

/// A relationship without an inverse, for the dangling-reference rules.
final class Note: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: nil) var author: Author?
}

final class Author: ManagedObject {
    @Attribute var name = ""
}

@Suite struct ChangeTrackingEdgeTests {
    let model = try! ManagedObjectModel(Counter.self, Note.self, Author.self)

    @Test func failedSaveUndoesWhatWillSaveChanged() throws {
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let counter = Counter(context: context)
        #expect(throws: PersistenceError.self) { try context.save() }
        #expect(counter.saves == 0)
        #expect(context.insertedObjects == [counter])
        counter.required = "yes"
        try context.save()
        #expect(counter.saves == 1)
        counter.label = "changed"
        counter.required = nil
        #expect(throws: PersistenceError.self) { try context.save() }
        #expect(counter.saves == 1 && counter.label == "changed" && counter.required == nil)
        #expect(context.updatedObjects == [counter])
        context.rollback()
        #expect(counter.label == nil && counter.required == "yes" && !context.hasChanges)
    }

    @Test func failedStoreSaveUndoesDeleteRulesAndHooks() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        apple.basket = basket
        try context.save()
        context.delete(apple)
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.save() }
        #expect(apple.isDeleted && basket.fruits.isEmpty)
        #expect(context.deletedObjects == [apple])
        context.rollback()
        #expect(!apple.isDeleted && basket.fruits == [apple] && apple.basket === basket)
    }

    @Test func lookingUpAMissingIDRegistersNothing() throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .discard)
        let context = container.newContext()
        let ghost = context.object(with: ObjectID(entityName: "Fruit", key: 1))
        #expect(ghost.isDeleted && ghost.managedObjectContext == nil)
        #expect(context.registeredObjects.isEmpty)
        let real = makeFruit(context, "real")
        #expect(real.objectID.key == 1)
        #expect(context.object(with: real.objectID) === real)
    }

    @Test func relationshipsSkipObjectsDeletedElsewhere() throws {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        let pear = makeFruit(context, "pear")
        basket.fruits = [apple, pear]
        try context.save()
        let other = container.newContext()
        other.delete(try other.existingObject(with: pear.objectID))
        try other.save()
        let reader = container.newContext()
        let readBasket = try #require(try reader.existingObject(with: basket.objectID) as? Basket)
        #expect(readBasket.fruits.map(\.name) == ["apple"])
    }

    @Test func removingAndReaddingToAnUnorderedRelationshipIsNoChange() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        let pear = makeFruit(context, "pear")
        basket.fruits = [pear, apple]
        try context.save()
        apple.basket = nil
        apple.basket = basket
        #expect(!context.hasChanges)
    }

    @Test func aStaleTargetWithoutInverseDoesNotBlockUnrelatedEdits() throws {
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let author = Author(context: context)
        let note = Note(context: context)
        note.author = author
        try context.save()
        context.delete(author)
        try context.save()
        note.title = "still editable"
        try context.save()
        #expect(note.author == nil)
    }

    @Test func refreshKeepsDeletedObjectsEditsForRollback() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple", price: 1)
        try context.save()
        apple.price = 2
        context.delete(apple)
        context.refresh(apple, mergeChanges: true)
        context.rollback()
        #expect(apple.price == 1 && !apple.isDeleted && !context.hasChanges)
    }

    @Test func countMatchesFetchWhenAPendingDeleteWasDeletedElsewhere() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        makeFruit(context, "pear")
        try context.save()
        context.delete(apple)
        let other = container.newContext()
        other.delete(try other.existingObject(with: apple.objectID))
        try other.save()
        #expect(try context.count(for: Fruit.fetchRequest()) == context.fetch(Fruit.fetchRequest()).count)
        var negative = Fruit.fetchRequest()
        negative.fetchOffset = -5
        #expect(try context.count(for: negative) == context.fetch(negative).count)
    }

    @Test func reinsertedObjectStartsWithEmptyRelationships() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        apple.basket = basket
        context.rollback()
        let (_, other) = try makeContext()
        other.insert(apple)
        #expect(apple.basket == nil && apple.name == "apple")
        try other.save()
    }

    @Test func floatingPointAndDecimalConversions() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        try sample.setValue(0.1, forKey: "single")
        #expect(sample.single == Float(0.1))
        try sample.setValue(1.25, forKey: "amount")
        #expect(sample.amount == Decimal(string: "1.25"))
        #expect(throws: PersistenceError.self) { try sample.setValue(1e300, forKey: "single") }
        #expect(throws: PersistenceError.self) { try sample.setValue(Double.nan, forKey: "amount") }
        let entity = EntityDescription(
            name: "A", attributes: [AttributeDescription(name: "f", type: .float, defaultValue: 0.1)])
        #expect(try ManagedObjectModel(entities: [entity]).entities[0].attributes[0].defaultValue == .float(0.1))
    }

    @Test func snapshotRejectsKeysOutsideTheValidRange() throws {
        var snapshot = StoreSnapshot(model: TestModels.fruits)
        let values: [StoreValue] = ["x", 1, .null, .objects([])]
        for key in [0, -1, Int64.max] {
            let error = #expect(throws: PersistenceError.self) {
                try snapshot.insert(
                    StoreRecord(objectID: ObjectID(entityName: "Fruit", key: key), version: 1, values: values))
            }
            #expect(error?.code == .corruptStore)
        }
        try snapshot.insert(StoreRecord(objectID: ObjectID(entityName: "Fruit", key: 7), version: 1, values: values))
        #expect(throws: PersistenceError.self) {
            try snapshot.insert(
                StoreRecord(objectID: ObjectID(entityName: "Fruit", key: 7), version: 1, values: values))
        }
        #expect(throws: PersistenceError.self) {
            try snapshot.insert(StoreRecord(objectID: ObjectID(entityName: "Fruit", key: 8), version: 1, values: ["x"]))
        }
        #expect(throws: PersistenceError.self) {
            try snapshot.insert(
                StoreRecord(
                    objectID: ObjectID(entityName: "Fruit", key: 9), version: 1, values: [1, 1, .null, .objects([])]))
        }
        #expect(snapshot.count == 1 && snapshot.nextKey(ofEntity: "Fruit") == 8)
    }

    @Test func creatingAnObjectOfTheWrongClassStops() async {
        await #expect(processExitsWith: .failure) {
            let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
            let context = container.newContext()
            _ = ManagedObject(entity: context.model.entity(named: "Fruit")!, insertInto: context)
        }
    }
}

@Suite struct DanglingReferenceTests {
    let model = try! ManagedObjectModel(Note.self, Author.self)

    @Test(arguments: [StoreKind.jsonFile, .binaryFile, .sqlite])
    func deletingTheTargetOfARelationshipWithoutInverseKeepsTheStoreOpenable(kind: StoreKind) throws {
        let store = kind.makeStore()
        var noteID: ObjectID?
        do {
            let container = try PersistentContainer(model: model, store: store)
            let context = container.newContext()
            let author = Author(context: context)
            let note = Note(context: context)
            note.author = author
            try context.save()
            noteID = note.objectID
            let other = container.newContext()
            other.delete(try other.existingObject(with: author.objectID))
            try other.save()
            note.title = "edited after the author went"
            try context.save()
        }
        let reopened = try PersistentContainer(model: model, store: store)
        let note = try #require(try reopened.newContext().existingObject(with: noteID!) as? Note)
        #expect(note.author == nil && note.title == "edited after the author went")
    }
}
