import Foundation
import ObjectGraph
import Observation

/// What observation, fetched-results controllers and undo cost, on a store of `count` items.
/// Run with `--only observation`, `--only "fetched results"` or `--only undo`.
func runObservationBenchmarks(_ container: PersistentContainer, count: Int) throws {
    if let only,
        !["observation", "fetched results", "undo"].contains(where: { $0.contains(only) || only.contains($0) })
    {
        return
    }

    try measureTimed(
        "observation: first read of one typed attribute of \(count) fetched objects (makes registrars)",
        iterations: 1, repetitions: 5
    ) {
        let items = try container.newContext().fetch(Item.fetchRequest())
        let start = ContinuousClock.now
        var total: Int64 = 0
        for item in items { total &+= item.price }
        precondition(total >= 0)
        return ContinuousClock.now - start
    }

    let context = container.newContext()
    let items = try context.fetch(Item.fetchRequest())
    measure(
        "observation: read one typed attribute of \(count) fetched objects inside withObservationTracking",
        iterations: 1, repetitions: 5
    ) {
        var total: Int64 = 0
        withObservationTracking {
            for item in items { total &+= item.price }
        } onChange: {
        }
        precondition(total >= 0)
    }

    do {  // the controller is released before the undo workload
        var request = Item.fetchRequest()
        request.predicate = try FetchPredicate(format: "price < %d", 100)
        request.sortDescriptors = [SortDescriptor(key: "price"), SortDescriptor(key: "name")]
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        let edited = controller.fetchedObjects[0]
        var price: Int64 = 0
        measure(
            "fetched results: edit one object's sort key + processPendingChanges, \(controller.fetchedObjects.count) results",
            iterations: 20
        ) {
            price = (price + 37) % 100
            edited.price = price
            context.processPendingChanges()
        }
        context.rollback()
    }

    context.undoManager = ContextUndoManager()
    measure("undo: 1000 attribute changes in one group, then undo and redo", iterations: 20) {
        for item in items.prefix(1_000) { item.weight += 1 }
        context.undoManager?.undo()
        context.undoManager?.redo()
    }
    context.undoManager = nil
}
