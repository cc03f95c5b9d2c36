import Foundation
import ObjectGraph

/// A fetched-results controller over `count` fruits in sections by name (one fruit each: the
/// names are unique), each iteration changing one fruit's price and saving: the cost of one
/// round, which re-fetches and re-sections every result today (issue 25 asks for O(change)).
/// Run with `--only controller`.
func runControllerBenchmarks(count: Int) throws {
    let name = "controller: change 1 of \(count) sectioned results + save (one round)"
    guard isSelected(name) else { return }
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
    let target = controller.fetchedObjects[count / 2]
    var step: Int64 = 0
    try measure(name, iterations: 100) {
        step += 1
        target.price = step
        try context.save()
    }
}
