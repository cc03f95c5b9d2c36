import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct ManagedContextTests {
    // MARK: - Create, read, update, delete

    @Test func createReadUpdateDeleteFruit() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "apple", price: 120)
        try context.save()
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["apple"])

        apple.price = 90
        try context.save()
        let other = container.newContext()
        #expect(try other.fetch(Fruit.fetchRequest()).first?.price == 90)

        context.delete(apple)
        #expect(apple.isDeleted && context.hasChanges)
        try context.save()
        #expect(try context.count(for: Fruit.fetchRequest()) == 0)
        #expect(apple.managedObjectContext == nil && apple.isDeleted)
        #expect(apple.name == "apple")
    }

    @Test func saveIfNeededDoesNothingWithoutChanges() throws {
        let (_, context) = try makeContext()
        #expect(try context.saveIfNeeded() == false)
        makeFruit(context, "apple")
        #expect(try context.saveIfNeeded() == true)
        #expect(try context.saveIfNeeded() == false)
    }

    @Test func saveWithoutChangesWritesNothing() throws {
        let store = RecordingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        try context.save()
        let fruit = makeFruit(context, "apple")
        try context.save()
        fruit.price = fruit.price
        try context.save()
        #expect(store.changeSets.count == 1)
        #expect(store.changeSets[0].inserted.map(\.objectID) == [fruit.objectID])
    }

    @Test func insertingTwiceIsHarmless() throws {
        let (_, context) = try makeContext()
        let fruit = makeFruit(context, "apple")
        context.insert(fruit)
        #expect(context.insertedObjects.count == 1)
        try context.save()
        context.insert(fruit)
        #expect(!context.hasChanges)
        #expect(try context.count(for: Fruit.fetchRequest()) == 1)
    }

    @Test func insertThenDeleteLeavesNoChange() throws {
        let (_, context) = try makeContext()
        let fruit = makeFruit(context, "ghost")
        context.delete(fruit)
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
        #expect(fruit.managedObjectContext == nil)
        #expect(!fruit.hasChanges && !fruit.isInserted && !fruit.isDeleted)
        #expect(try context.fetch(Fruit.fetchRequest()).isEmpty)
    }

    @Test func changeSetsListTheRightObjects() throws {
        let (_, context) = try makeContext()
        let kept = makeFruit(context, "kept")
        let changed = makeFruit(context, "changed")
        let removed = makeFruit(context, "removed")
        try context.save()
        let added = makeFruit(context, "added")
        changed.price = 1
        context.delete(removed)
        #expect(context.insertedObjects == [added])
        #expect(context.updatedObjects == [changed])
        #expect(context.deletedObjects == [removed])
        #expect(context.registeredObjects == [kept, changed, removed, added])
    }

    // MARK: - Validation

    @Test func missingRequiredValueNamesEntityObjectAndKey() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.entityName == "Sample")
        #expect(error?.key == "required")
        #expect(error?.objectID == sample.objectID)
        #expect(error?.message.contains("required 'Sample.required'") == true)
        #expect(sample.isInserted)
        sample.required = "now set"
        try context.save()
    }

    @Test func everyValidationFailureOfOneSaveIsListed() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        _ = Sample(context: context)
        _ = Sample(context: context)
        let journal = Journaled(context: context)
        journal.title = "invalid"
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.detailedErrors.count == 3)
        #expect(error?.description.contains("3 validation failures") == true)
        #expect(context.insertedObjects.count == 3)
    }

    @Test func catchPatternMatchesCodes() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        _ = Sample(context: context)
        var caught = false
        do {
            try context.save()
        } catch PersistenceError.Code.validation {
            caught = true
        }
        #expect(caught)
    }

    // MARK: - Rollback, reset, refresh

    @Test func rollbackRestoresCommittedValues() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple", price: 100)
        let pear = makeFruit(context, "pear")
        try context.save()
        apple.price = 999
        apple.name = "changed"
        context.delete(pear)
        let added = makeFruit(context, "added")
        context.rollback()
        #expect(apple.price == 100 && apple.name == "apple")
        #expect(!pear.isDeleted)
        #expect(added.managedObjectContext == nil && !added.isInserted)
        #expect(!context.hasChanges)
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["apple", "pear"])
    }

    @Test func resetForgetsObjectsAndChanges() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        try context.save()
        apple.price = 5
        makeFruit(context, "unsaved")
        context.reset()
        #expect(!context.hasChanges)
        #expect(context.registeredObjects.isEmpty)
        #expect(apple.managedObjectContext == nil)
        let fetched = try context.fetch(Fruit.fetchRequest())
        #expect(fetched.count == 1)
        #expect(fetched[0] !== apple)
        #expect(fetched[0].price == 100)
    }

    @Test func refreshDiscardsOrMergesLocalChanges() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "apple", price: 100)
        try context.save()
        let other = container.newContext()
        let otherApple = try #require(try other.existingObject(with: apple.objectID) as? Fruit)
        otherApple.name = "renamed elsewhere"
        try other.save()

        apple.price = 1
        context.refresh(apple, mergeChanges: true)
        #expect(apple.name == "renamed elsewhere" && apple.price == 1)
        #expect(apple.isUpdated)
        try context.save()

        apple.price = 2
        context.refresh(apple, mergeChanges: false)
        #expect(apple.price == 1 && !context.hasChanges)
    }

    @Test func refreshOfObjectDeletedElsewhereMarksItDeleted() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        try context.save()
        let other = container.newContext()
        other.delete(try other.existingObject(with: apple.objectID))
        try other.save()
        context.refresh(apple, mergeChanges: false)
        #expect(apple.isDeleted)
        #expect(!context.hasChanges)
    }

    // MARK: - Uniquing and lookup

    @Test func oneInstancePerObjectID() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        try context.save()
        let first = try context.fetch(Fruit.fetchRequest())
        let second = try context.fetch(Fruit.fetchRequest())
        #expect(first[0] === apple && second[0] === apple)
        #expect(context.object(with: apple.objectID) === apple)
        #expect(try context.existingObject(with: apple.objectID) === apple)

        let reader = container.newContext()
        let a = reader.object(with: apple.objectID)
        #expect(a === reader.object(with: apple.objectID))
        #expect(a !== apple)
    }

    @Test func existingObjectThrowsForUnknownIDs() throws {
        let (_, context) = try makeContext()
        let missing = ObjectID(entityName: "Fruit", key: 12345)
        let error = #expect(throws: PersistenceError.self) { try context.existingObject(with: missing) }
        #expect(error?.code == .objectNotFound)
        #expect(error?.objectID == missing)
        let unknown = #expect(throws: PersistenceError.self) {
            try context.existingObject(with: ObjectID(entityName: "Nope", key: 1))
        }
        #expect(unknown?.code == .unknownEntity)
        let placeholder = context.object(with: missing)
        #expect(placeholder.isDeleted)
        #expect((placeholder as? Fruit)?.name == "")
    }

    // MARK: - Conflicts between contexts

    @Test func staleUpdateIsAConflictAndChangesNothing() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "apple", price: 100)
        try context.save()
        let other = container.newContext()
        let otherApple = try #require(try other.existingObject(with: apple.objectID) as? Fruit)
        apple.price = 200
        try context.save()
        otherApple.price = 300
        let error = #expect(throws: PersistenceError.self) { try other.save() }
        #expect(error?.code == .conflict)
        #expect(error?.objectID == apple.objectID)
        #expect(otherApple.price == 300 && other.hasChanges)
        #expect(try container.newContext().fetch(Fruit.fetchRequest()).first?.price == 200)
        other.refresh(otherApple, mergeChanges: true)
        try other.save()
        #expect(try container.newContext().fetch(Fruit.fetchRequest()).first?.price == 300)
    }

    @Test func referenceToObjectDeletedElsewhereIsAConflict() throws {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        try context.save()
        let other = container.newContext()
        other.delete(try other.existingObject(with: basket.objectID))
        try other.save()
        let fruit = makeFruit(context, "orphan")
        fruit.basket = basket
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(error?.objectID == basket.objectID)
        #expect(error?.message.contains("was deleted") == true)
        #expect(fruit.isInserted && fruit.basket === basket)
    }
}
