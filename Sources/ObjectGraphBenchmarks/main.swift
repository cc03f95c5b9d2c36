// The library's own benchmarks (no dependencies). Run in release mode:
//     swift run -c release objectgraph-benchmarks
// `--smoke` runs each workload once with small sizes, to check that it works (CI does this).
import Foundation
import ObjectGraph
import ObjectGraphTesting

let model = try ManagedObjectModel(Item.self, Shelf.self)
let testModel = try ManagedObjectModel(Fruit.self, Basket.self)
let bulkCount = smoke ? 1_000 : 100_000

func fill(_ context: ManagedContext, count: Int) {
    for index in 0..<count {
        let item = Item(context: context)
        item.name = "item \(index)"
        item.price = Int64(index % 1_000)
        item.weight = Double(index) / 10
        item.createdAt = Date(timeIntervalSinceReferenceDate: Double(index))
    }
}

print("| Workload (median per iteration) | Time |")
print("|---|---|")

/// `--only binary`, `--only JSON`, `--only SQLite`, `--only floor`, `--only reference` and `--only "(issue 4)…"` skip the
/// in-memory section.
let inMemorySection =
    only.map { word in
        !["binary", "JSON", "SQLite", "floor", "reference", "(issue 4)"].contains {
            $0.hasPrefix(word) || word.hasPrefix($0)
        }
    }
    ?? true
if inMemorySection {

    try measure("test setup: in-memory container (2 entities), insert 10, save, fetch 10", iterations: 5_000) {
        let container = try PersistentContainer(model: testModel, storeDescription: .inMemory)
        let context = container.newContext()
        for index in 0..<10 {
            let fruit = Fruit(context: context)
            fruit.name = "fruit \(index)"
            fruit.price = Int64(index * 50)
        }
        try context.save()
        let fetched = try context.fetch(Fruit.fetchRequest())
        precondition(fetched.count == 10)
    }

    try measure(
        "test container: forTesting(2 entities), seeded with 10 objects (2 baskets, 8 fruits in them)",
        iterations: 5_000
    ) {
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self) { context in
            let baskets = [Basket(context: context), Basket(context: context)]
            for index in 0..<8 {
                let fruit = Fruit(context: context)
                fruit.name = "fruit \(index)"
                fruit.price = Int64(index)
                fruit.basket = baskets[index % 2]
            }
        }
        precondition(container.committedSnapshot().count == 10)
    }

    try measure("insert + save \(bulkCount) objects (in-memory)", iterations: 1, repetitions: 5) {
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        fill(context, count: bulkCount)
        try context.save()
    }

    let store = InMemoryStore()
    let container = try PersistentContainer(model: model, store: store)
    do {
        let context = container.newContext()
        fill(context, count: bulkCount)
        try context.save()
    }

    try measure("fetch all \(bulkCount) objects into a new context", iterations: 1, repetitions: 5) {
        let context = container.newContext()
        let fetched = try context.fetch(Item.fetchRequest())
        precondition(fetched.count == bulkCount)
    }

    let reader = container.newContext()
    let items = try reader.fetch(Item.fetchRequest())
    measure("read one typed attribute of \(bulkCount) fetched objects", iterations: 1, repetitions: 5) {
        var total: Int64 = 0
        for item in items { total &+= item.price }
        precondition(total >= 0)
    }

    let editor = container.newContext()
    var firstRequest = Item.fetchRequest()
    firstRequest.fetchLimit = 1
    let first = try editor.fetch(firstRequest)[0]
    var price: Int64 = 0
    try measure("change one object + save, on a \(bulkCount)-object store", iterations: 1_000) {
        price += 1
        first.price = price
        try editor.save()
    }

    try measure("count \(bulkCount) objects", iterations: 1_000) {
        let count = try editor.count(for: Item.fetchRequest())
        precondition(count == bulkCount)
    }

    var filtered = Item.fetchRequest()
    filtered.predicate = try FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH %@", "item 1")
    try measure("count \(bulkCount) objects with a predicate (BETWEEN AND BEGINSWITH)", iterations: 20) {
        let count = try editor.count(for: filtered)
        precondition(count > 0)
    }

    var folded = Item.fetchRequest()
    folded.predicate = try FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH[cd] %@", "ITEM 1")
    try measure("count \(bulkCount) objects with a predicate (BETWEEN AND BEGINSWITH[cd])", iterations: 20) {
        let count = try editor.count(for: folded)
        precondition(count > 0)
    }

    try runSwiftPredicateBenchmarks(container, count: bulkCount)
    try runObservationBenchmarks(container, count: bulkCount)

    var sorted = Item.fetchRequest()
    sorted.predicate = try FetchPredicate(format: "price < %d", 100)
    sorted.sortDescriptors = [SortDescriptor(key: "weight", ascending: false)]
    sorted.fetchLimit = 20
    try measure("fetch 20 of \(bulkCount) objects: predicate, sort, limit (new context)", iterations: 10) {
        let context = container.newContext()
        let fetched = try context.fetch(sorted)
        precondition(fetched.count == 20)
    }

    try measureTimed("delete all \(bulkCount) + save (store filled outside the timing)", iterations: 1, repetitions: 3)
    {
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        fill(context, count: bulkCount)
        try context.save()
        context.reset()
        let start = ContinuousClock.now
        try context.deleteAll(Item.self)
        return ContinuousClock.now - start
    }

    measure("reference: Foundation UUID() x \(bulkCount), as each new Item evaluates", iterations: 1, repetitions: 5) {
        var last = UUID()
        for _ in 0..<bulkCount { last = UUID() }
        precondition(last != UUID())
    }
}

/// `--only batch` or `--only result` (or any word of their workloads' names) runs these.
if only.map({ word in ["batch", "result kinds"].contains { $0.contains(word) || word.contains($0) } }) ?? true {
    try runBatchBenchmarks(count: bulkCount)
}
/// `--only "issue 4"` (or a word of those workloads' names) runs the index and sort targets.
let indexWorkloads =
    "(issue 4) equality fetch (indexed) (no index) BEGINSWITH 'a' sorted by price sort all parse a 5-clause"
if only.map({ $0.hasPrefix("(issue 4)") || indexWorkloads.contains($0) }) ?? true {
    try runIndexBenchmarks(count: bulkCount)
}
/// `--only lookup` runs the UUID and compound-index lookups.
if only.map({ $0.hasPrefix("lookup") }) ?? true {
    try runLookupBenchmarks(count: bulkCount)
}
if only.map({ $0.hasPrefix("controller") }) ?? true {
    try runControllerBenchmarks(count: smoke ? 1_000 : 10_000)
    try runControllerBenchmarks(count: bulkCount)
}
try runStoreBenchmarks(count: bulkCount)
try runMigrationBenchmarks(count: bulkCount)
