import Foundation
import ObjectGraph
import Testing

@Suite struct RefreshAllObjectsTests {
    @Test func refreshAllObjectsLoadsOtherContextsSavesAndKeepsUnsavedChanges() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        let pear = makeFruit(context, "Pear", price: 200)
        try context.save()
        let other = container.newContext()
        for fruit in try other.fetch(Fruit.fetchRequest()) { fruit.price += 1 }
        try other.save()
        apple.name = "Green apple"  // unsaved here
        #expect(apple.price == 100 && pear.price == 200)
        context.refreshAllObjects()
        #expect(apple.price == 101 && pear.price == 201)
        #expect(apple.name == "Green apple" && apple.isUpdated && !pear.isUpdated)
        #expect(apple.changedValues().keys.sorted() == ["name"])
        try context.save()
        #expect(try other.fetch(Fruit.fetchRequest()).map(\.price).sorted() == [101, 201])
    }

    @Test func refreshAllObjectsLeavesInsertsAndMarksVanishedObjectsDeleted() throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "Apple")
        try context.save()
        let fresh = makeFruit(context, "Fresh")
        let other = container.newContext()
        other.delete(try other.existingObject(with: apple.objectID))
        try other.save()
        context.refreshAllObjects()
        #expect(apple.isDeleted)
        #expect(fresh.isInserted && fresh.name == "Fresh")
        try context.save()
        #expect(try other.fetch(Fruit.fetchRequest()).map(\.name) == ["Fresh"])
    }

    @Test func refreshAllObjectsUpdatesAFetchedResultsControllerOnce() throws {
        let (container, context) = try makeContext()
        makeFruit(context, "Apple", price: 100)
        try context.save()
        let controller = FetchedResultsController(fetchRequest: Fruit.fetchRequest(), context: context)
        try controller.performFetch()
        var rounds: [FetchedResultsChanges] = []
        controller.onChange = { rounds.append($0) }
        let other = container.newContext()
        for fruit in try other.fetch(Fruit.fetchRequest()) { fruit.price = 1 }
        try other.save()
        context.refreshAllObjects()
        #expect(rounds.count == 1 && rounds.first?.updated == [0])
    }

    @Test func aChildContextRefreshesFromItsParent() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        try context.save()
        let child = context.newChildContext()
        let copy = try #require(try child.existingObject(with: apple.objectID) as? Fruit)
        apple.price = 150  // the parent's unsaved change
        child.refreshAllObjects()
        #expect(copy.price == 150 && !copy.hasChanges)
    }
}
