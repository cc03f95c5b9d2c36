import Foundation
import ObjectGraph
import Testing

@Suite struct UndoTests {
    /// A context with undo on and one saved fruit (Apple, 100).
    private func makeScene() throws -> (PersistentContainer, ManagedContext, ContextUndoManager, Fruit) {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        try context.save()
        let undo = ContextUndoManager()
        context.undoManager = undo
        return (container, context, undo, apple)
    }

    @Test func undoIsOffByDefault() throws {
        let (_, context) = try makeContext()
        #expect(context.undoManager == nil)
        makeFruit(context, "Apple")
        context.processPendingChanges()  // nothing to record into, nothing breaks
    }

    @Test func attributeChangesUndoAndRedo() throws {
        let (_, context, undo, apple) = try makeScene()
        #expect(!undo.canUndo && !undo.canRedo)
        apple.price = 150
        apple.name = "Äpfel 🍎"
        #expect(undo.canUndo)
        undo.undo()
        #expect(apple.price == 100 && apple.name == "Apple")
        #expect(!context.hasChanges)  // back to the saved values
        #expect(undo.canRedo && !undo.canUndo)
        undo.redo()
        #expect(apple.price == 150 && apple.name == "Äpfel 🍎")
        #expect(undo.canUndo && !undo.canRedo)
    }

    @Test func eachProcessedEventIsAGroup() throws {
        let (_, context, undo, apple) = try makeScene()
        apple.price = 1
        context.processPendingChanges()
        apple.price = 2
        apple.price = 3
        context.processPendingChanges()
        undo.undo()
        #expect(apple.price == 1)
        undo.undo()
        #expect(apple.price == 100)
        #expect(!undo.canUndo)
        undo.redo()
        undo.redo()
        #expect(apple.price == 3)
    }

    @Test func explicitGroupsNestAndUndoTogether() throws {
        let (context, undo, apple) = try {
            let s = try makeScene(); return (s.1, s.2, s.3)
        }()
        undo.beginUndoGrouping()
        apple.price = 1
        context.processPendingChanges()  // does not end an explicit group
        undo.beginUndoGrouping()
        apple.name = "Inner"
        undo.endUndoGrouping()
        apple.price = 2
        undo.endUndoGrouping()
        undo.undo()
        #expect(apple.price == 100 && apple.name == "Apple")
        #expect(!undo.canUndo)
    }

    @Test func undoInsideAnOpenGroupDoesNothing() throws {
        let (_, context, undo, apple) = try makeScene()
        undo.beginUndoGrouping()
        apple.price = 1
        undo.undo()
        #expect(apple.price == 1)
        undo.endUndoGrouping()
        undo.undo()
        #expect(apple.price == 100)
        #expect(!context.hasChanges)
    }

    @Test func withoutGroupingByEventEachChangeIsAGroup() throws {
        let (_, context, undo, apple) = try makeScene()
        undo.groupsByEvent = false
        apple.price = 1
        apple.price = 2
        undo.undo()
        #expect(apple.price == 1)
        #expect(context.hasChanges)
    }

    @Test func aNewChangeClearsRedo() throws {
        let (context, undo, apple) = try {
            let s = try makeScene(); return (s.1, s.2, s.3)
        }()
        apple.price = 1
        undo.undo()
        #expect(undo.canRedo)
        apple.name = "Other"
        context.processPendingChanges()
        #expect(!undo.canRedo)
        undo.redo()  // nothing to redo
        #expect(apple.price == 100)
    }

    @Test func insertUndoesAndRedoes() throws {
        let (container, context, undo, _) = try makeScene()
        let pear = makeFruit(context, "Pear", price: 5)
        context.processPendingChanges()
        undo.undo()
        #expect(pear.managedObjectContext == nil)
        #expect(context.insertedObjects.isEmpty)
        #expect(try context.count(for: Fruit.fetchRequest()) == 1)
        undo.redo()
        #expect(pear.managedObjectContext === context && pear.isInserted)
        try context.save()
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 2)
    }

    @Test func deleteUndoesAndRedoes() throws {
        let (_, context, undo, apple) = try makeScene()
        context.delete(apple)
        undo.undo()
        #expect(!apple.isDeleted)
        #expect(!context.hasChanges)
        undo.redo()
        #expect(apple.isDeleted)
        try context.save()
        #expect(try context.count(for: Fruit.fetchRequest()) == 0)
    }

    @Test func undoAfterSaveMakesTheContextDirtyAndSavesTheUndoneState() throws {
        let (container, context, undo, apple) = try makeScene()
        apple.price = 150
        try context.save()
        #expect(!context.hasChanges)
        undo.undo()
        #expect(context.hasChanges)
        #expect(apple.price == 100)
        try context.save()
        let fresh = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(fresh.map(\.price) == [100])
    }

    @Test func undoOfASavedDeleteBringsTheObjectBack() throws {
        let (container, context, undo, apple) = try makeScene()
        let id = apple.objectID
        context.delete(apple)
        try context.save()
        undo.undo()
        #expect(apple.managedObjectContext === context && !apple.isDeleted)
        try context.save()
        let fresh = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(fresh.map(\.name) == ["Apple"])
        #expect(fresh.first?.objectID == id)
    }

    @Test func relationshipChangesUndoWithTheirInverses() throws {
        let (_, context, undo, apple) = try makeScene()
        let basket = Basket(context: context)
        basket.label = "Kitchen"
        try context.save()
        undo.removeAllActions()
        apple.basket = basket
        #expect(basket.fruits == [apple])
        undo.undo()
        #expect(apple.basket == nil)
        #expect(basket.fruits.isEmpty)
        undo.redo()
        #expect(apple.basket === basket)
        #expect(basket.fruits == [apple])
    }

    @Test func undoOfACascadeDeleteRestoresDependantsAndInverses() throws {
        let (container, context, undo, apple) = try makeScene()
        let basket = Basket(context: context)
        let pear = makeFruit(context, "Pear")
        let tag = Tag(context: context)
        tag.title = "fresh"
        apple.basket = basket
        pear.basket = basket
        pear.tags = [tag]
        try context.save()
        undo.removeAllActions()

        context.delete(basket)
        #expect(apple.isDeleted && pear.isDeleted)
        #expect(tag.fruits.isEmpty)
        undo.undo()
        #expect(!basket.isDeleted && !apple.isDeleted && !pear.isDeleted)
        #expect(basket.fruits == [apple, pear])
        #expect(apple.basket === basket && pear.basket === basket)
        #expect(tag.fruits == [pear] && pear.tags == [tag])
        #expect(!context.hasChanges)

        undo.redo()
        #expect(basket.isDeleted && apple.isDeleted && pear.isDeleted)
        try context.save()
        undo.undo()
        try context.save()
        let fresh = container.newContext()
        let baskets = try fresh.fetch(Basket.fetchRequest())
        #expect(baskets.count == 1)
        #expect(Set(baskets[0].fruits.map(\.name)) == ["Apple", "Pear"])
        #expect(try fresh.fetch(Tag.fetchRequest()).first?.fruits.map(\.name) == ["Pear"])
    }

    @Test func rollbackAndResetClearTheStacks() throws {
        let (_, context, undo, apple) = try makeScene()
        apple.price = 1
        context.rollback()
        #expect(!undo.canUndo)
        apple.price = 2
        context.processPendingChanges()
        context.reset()
        #expect(!undo.canUndo && !undo.canRedo)
    }

    @Test func levelsOfUndoDropTheOldestGroups() throws {
        let (context, undo, apple) = try {
            let s = try makeScene(); return (s.1, s.2, s.3)
        }()
        undo.levelsOfUndo = 2
        for price in 1...5 {
            apple.price = Int64(price)
            context.processPendingChanges()
        }
        undo.undo()
        undo.undo()
        #expect(apple.price == 3)
        #expect(!undo.canUndo)
    }

    @Test func undoNotifiesObserversAndControllers() throws {
        let (_, context, undo, apple) = try makeScene()
        let controller = FetchedResultsController(fetchRequest: Fruit.fetchRequest(), context: context)
        try controller.performFetch()
        let pear = makeFruit(context, "Pear")
        context.processPendingChanges()
        #expect(controller.fetchedObjects == [apple, pear])
        let counter = track { _ = apple.price }
        apple.price = 7
        context.processPendingChanges()
        #expect(counter.value == 1)
        let again = track { _ = apple.price }
        undo.undo()
        #expect(again.value == 1)
        undo.undo()
        #expect(controller.fetchedObjects == [apple])
    }

    @Test func oneManagerServesOneContext() throws {
        let (_, context, undo, _) = try makeScene()
        context.undoManager = nil
        let (_, other) = try makeContext()
        other.undoManager = undo  // released by the first context, so it may serve another
        #expect(other.undoManager === undo)
    }
}
