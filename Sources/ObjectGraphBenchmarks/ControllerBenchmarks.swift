import Foundation
import ObjectGraph

/// Fetched-results controllers over `count` fruits sorted by name, in sections by name (one fruit
/// each: the names are unique), each iteration changing one fruit: the cost of one round, which
/// follows the changed objects alone (issue 25). Run with `--only controller`.
func runControllerBenchmarks(count: Int) throws {
    let changeName = "controller: change 1 of \(count) sectioned results + save (one round)"
    let moveName = "controller: move 1 of \(count) sectioned results to another section + save (one round)"
    let roundName = "controller: one round after editing 1 of \(count) results, no save (processPendingChanges)"
    guard isSelected(changeName) || isSelected(moveName) || isSelected(roundName) else { return }
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let container = try PersistentContainer(
        model: ManagedObjectModel(Fruit.self, Basket.self), storeDescription: .inMemory)
    let context = container.newContext()
    for index in 0..<count {
        let fruit = Fruit(context: context)
        fruit.name = "\(letters[index % 26])\(index)"
        fruit.price = Int64(index)
    }
    try context.save()
    var request = FetchRequest<Fruit>()
    request.sortDescriptors = [SortDescriptor(key: "name")]
    let controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "name")
    try controller.performFetch()
    var rounds = 0
    controller.onChange = { _ in rounds += 1 }
    let target = controller.fetchedObjects[count / 2]
    let originalName = target.name
    // Fewer iterations for large lists: a round that fetches again takes 0.1 s or more there.
    let iterations = count > 10_000 ? 10 : 100
    var step: Int64 = 0
    try measure(changeName, iterations: iterations) {
        step += 1
        target.price = step
        try context.save()
    }
    // Alternately to the front (before every other name) and back: a delete and an insert of a
    // section and a move across the whole list, each round.
    try measure(moveName, iterations: iterations) {
        target.name = target.name == originalName ? "0-\(originalName)" : originalName
        try context.save()
    }
    let clock = ContinuousClock()
    measureTimed(roundName, iterations: iterations) {
        step += 1
        target.price = step
        let start = clock.now
        context.processPendingChanges()
        return clock.now - start
    }
    // The benchmark's check of its own setup (no input reaches it): a run without rounds measured nothing.
    precondition(rounds > 0, "The controller reported no round.")
}
