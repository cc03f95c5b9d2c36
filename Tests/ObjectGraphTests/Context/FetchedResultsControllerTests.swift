import Foundation
import ObjectGraph
import Observation
import Testing

/// A controller of fruits sorted by price (then name), recording every reported change.
private final class Harness {
    let container: PersistentContainer
    let context: ManagedContext
    let controller: FetchedResultsController<Fruit>
    var reported: [FetchedResultsChanges] = []

    init(predicate: FetchPredicate? = nil, limit: Int = 0, prices: [Int64] = [10, 20, 30, 40]) throws {
        (container, context) = try makeContext()
        for (offset, price) in prices.enumerated() { makeFruit(context, "F\(offset)", price: price) }
        try context.save()
        var request = Fruit.fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = [SortDescriptor(key: "price"), SortDescriptor(key: "name")]
        request.fetchLimit = limit
        controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        controller.onChange = { [unowned self] in reported.append($0) }
    }

    var names: [String] { controller.fetchedObjects.map(\.name) }
    var prices: [Int64] { controller.fetchedObjects.map(\.price) }
    func fruit(_ name: String) -> Fruit { controller.fetchedObjects.first { $0.name == name }! }

    /// The one change reported since the last call.
    func last() -> FetchedResultsChanges? {
        defer { reported.removeAll() }
        return reported.count == 1 ? reported[0] : nil
    }
}

@Suite struct FetchedResultsControllerTests {
    @Test func performFetchFetchesAndReportsNothing() throws {
        let harness = try Harness()
        #expect(harness.prices == [10, 20, 30, 40])
        #expect(harness.reported.isEmpty)
        #expect(harness.controller.index(of: harness.fruit("F2")) == 2)
    }

    @Test func beforePerformFetchThereAreNoObjects() throws {
        let (_, context) = try makeContext()
        makeFruit(context, "Apple")
        let controller = FetchedResultsController(fetchRequest: Fruit.fetchRequest(), context: context)
        #expect(controller.fetchedObjects.isEmpty)
        try context.save()
        #expect(controller.fetchedObjects.isEmpty)  // not following the context yet
    }

    @Test func anInsertReportsItsNewIndex() throws {
        let harness = try Harness()
        makeFruit(harness.context, "New", price: 25)
        #expect(harness.reported.isEmpty)  // not processed yet
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(inserted: [2]))
        #expect(harness.prices == [10, 20, 25, 30, 40])
    }

    @Test func processPendingChangesShowsUnsavedChanges() throws {
        let harness = try Harness()
        makeFruit(harness.context, "First", price: 1)
        makeFruit(harness.context, "Last", price: 99)
        harness.context.processPendingChanges()
        #expect(harness.last() == FetchedResultsChanges(inserted: [0, 5]))
        harness.context.processPendingChanges()
        #expect(harness.reported.isEmpty)  // nothing new
        harness.context.rollback()
        #expect(harness.last() == FetchedResultsChanges(deleted: [0, 5]))
        #expect(harness.prices == [10, 20, 30, 40])
    }

    @Test func deletesReportTheirOldIndexes() throws {
        let harness = try Harness()
        harness.context.delete(harness.fruit("F1"))
        harness.context.delete(harness.fruit("F3"))
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(deleted: [1, 3]))
        #expect(harness.names == ["F0", "F2"])
    }

    @Test func anEditInPlaceIsAnUpdate() throws {
        let harness = try Harness()
        harness.fruit("F2").name = "F2 renamed"
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(updated: [2]))
    }

    @Test func aSortKeyEditThatChangesOrderIsAMove() throws {
        let harness = try Harness()
        harness.fruit("F0").price = 35
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(moved: [.init(from: 0, to: 2)]))
        #expect(harness.names == ["F1", "F2", "F0", "F3"])
    }

    @Test func aSortKeyEditThatKeepsOrderIsAnUpdate() throws {
        let harness = try Harness()
        harness.fruit("F1").price = 21
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(updated: [1]))
    }

    @Test func swappingTwoNeighboursMovesOnlyTheEditedOne() throws {
        let harness = try Harness()
        harness.fruit("F1").price = 31  // now after F2
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(moved: [.init(from: 1, to: 2)]))
    }

    @Test func insertsDeletesMovesAndUpdatesInOneRound() throws {
        let harness = try Harness(prices: [10, 20, 30, 40, 50])
        harness.context.delete(harness.fruit("F0"))  // old 0
        harness.fruit("F4").price = 15  // old 4 → new 0
        harness.fruit("F2").name = "F2*"  // old 2, stays → update
        makeFruit(harness.context, "New", price: 45)  // new 4
        try harness.context.save()
        #expect(harness.names == ["F4", "F1", "F2*", "F3", "New"])
        #expect(
            harness.last()
                == FetchedResultsChanges(deleted: [0], inserted: [4], moved: [.init(from: 4, to: 0)], updated: [2]))
    }

    @Test func anEditIntoOrOutOfThePredicateIsAnInsertOrADelete() throws {
        let harness = try Harness(predicate: try FetchPredicate(format: "price < %d", 35))
        #expect(harness.prices == [10, 20, 30])
        harness.fruit("F1").price = 100  // stops matching
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(deleted: [1]))
        let outside = try #require(
            try harness.context.fetch(Fruit.fetchRequest()).first { $0.name == "F3" })
        outside.price = 5  // starts matching
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(inserted: [0]))
        #expect(harness.names == ["F3", "F0", "F2"])
    }

    @Test func theFetchLimitPushesObjectsOut() throws {
        let harness = try Harness(limit: 2)
        #expect(harness.names == ["F0", "F1"])
        makeFruit(harness.context, "Cheapest", price: 1)
        try harness.context.save()
        #expect(harness.names == ["Cheapest", "F0"])
        #expect(harness.last() == FetchedResultsChanges(deleted: [1], inserted: [0]))
    }

    @Test func mergedSavesOfAnotherContextAreReported() async throws {
        let harness = try Harness()
        let other = harness.container.newContext()
        let saves = harness.container.saves
        var iterator = saves.makeAsyncIterator()
        let otherFruits = try other.fetch(Fruit.fetchRequest())
        otherFruits.first { $0.name == "F3" }!.price = 5
        other.delete(otherFruits.first { $0.name == "F1" }!)
        makeFruit(other, "Other", price: 35)
        try other.save()
        let notification = try #require(await iterator.next())
        #expect(harness.reported.isEmpty)
        harness.context.mergeChanges(from: notification)
        #expect(harness.names == ["F3", "F0", "F2", "Other"])
        #expect(
            harness.last() == FetchedResultsChanges(deleted: [1], inserted: [3], moved: [.init(from: 3, to: 0)]))
    }

    @Test func automaticallyMergedSavesAreReportedOnceWhenProcessed() throws {
        let harness = try Harness()
        harness.context.automaticallyMergesChanges = true
        let other = harness.container.newContext()
        makeFruit(other, "A", price: 1)
        try other.save()
        makeFruit(other, "B", price: 2)
        try other.save()
        #expect(harness.reported.isEmpty)
        harness.context.processPendingChanges()
        #expect(harness.reported == [FetchedResultsChanges(inserted: [0, 1])])
    }

    @Test func emptyResultsStayEmptyWithoutReports() throws {
        let harness = try Harness(predicate: try FetchPredicate(format: "name == %@", "nobody"))
        #expect(harness.controller.fetchedObjects.isEmpty)
        makeFruit(harness.context, "Somebody")
        try harness.context.save()
        #expect(harness.reported.isEmpty)
        makeFruit(harness.context, "nobody")
        try harness.context.save()
        #expect(harness.last() == FetchedResultsChanges(inserted: [0]))
    }

    @Test func fetchedObjectsAreObservable() throws {
        let harness = try Harness()
        let counter = track { _ = harness.controller.fetchedObjects }
        harness.fruit("F0").name = "F0*"  // an update keeps the same objects
        try harness.context.save()
        #expect(counter.value == 0)
        makeFruit(harness.context, "New")
        try harness.context.save()
        #expect(counter.value == 1)
    }

    @Test func theChangesStreamYieldsEachRound() async throws {
        let harness = try Harness()
        var stream = harness.controller.changes.makeAsyncIterator()
        makeFruit(harness.context, "New", price: 50)
        try harness.context.save()
        harness.context.delete(harness.fruit("F0"))
        try harness.context.save()
        #expect(await stream.next() == FetchedResultsChanges(inserted: [4]))
        #expect(await stream.next() == FetchedResultsChanges(deleted: [0]))
    }

    @Test func aFailedFetchKeepsTheResultsAndThrows() throws {
        let (_, context) = try makeContext()
        makeFruit(context, "Apple")
        try context.save()
        var request = Fruit.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "noSuchKey")]
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        #expect(throws: PersistenceError.self) { try controller.performFetch() }
        #expect(controller.fetchedObjects.isEmpty)
    }

    @Test func aReleasedControllerStopsFollowing() throws {
        let (_, context) = try makeContext()
        weak var released: FetchedResultsController<Fruit>?
        do {
            let controller = FetchedResultsController(fetchRequest: Fruit.fetchRequest(), context: context)
            try controller.performFetch()
            released = controller
        }
        #expect(released == nil)
        makeFruit(context, "Apple")
        try context.save()  // tells nobody, does not crash
    }

    @Test func manyObjectsReverseOrderReportsMinimalMoves() throws {
        let prices = (0..<200).map { Int64($0 * 10) }
        let harness = try Harness(prices: prices)
        harness.fruit("F199").price = -1  // last to first
        harness.fruit("F0").price = 100_000  // first to last
        try harness.context.save()
        #expect(
            harness.last()
                == FetchedResultsChanges(moved: [.init(from: 0, to: 199), .init(from: 199, to: 0)]))
    }
}
