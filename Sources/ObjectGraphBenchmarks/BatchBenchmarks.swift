import Foundation
import ObjectGraph

/// Batch requests and the ID and dictionary result kinds, on `count` objects. Stores are filled
/// outside the timing; each timed iteration is one `execute` or one fetch, nothing else.
func runBatchBenchmarks(count: Int) throws {
    let stores: [(String, () throws -> any PersistentStore)] = [
        ("in-memory", { InMemoryStore() }),
        (
            "binary store",
            {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "objectgraph-batch-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                return BinaryFileStore(url: directory.appendingPathComponent("store.ogdb"))
            }
        ),
    ]
    for (label, makeStore) in stores {
        let deletes: [(name: String, predicate: FetchPredicate?, expected: Int)] = [
            ("batch delete \(count) objects (\(label), filled outside the timing)", nil, count),
            (
                "batch delete \(count / 2) of \(count) objects with a predicate (\(label), filled outside the timing)",
                try FetchPredicate(format: "price < %d", 500), count / 2
            ),
        ]
        for delete in deletes {
            try measureTimed(delete.name, iterations: 1, repetitions: 3) {
                let container = try PersistentContainer(model: model, store: try makeStore())
                let context = container.newContext()
                fill(context, count: count)
                try context.save()
                context.reset()
                let start = ContinuousClock.now
                let result = try context.execute(BatchDeleteRequest(Item.self, predicate: delete.predicate))
                let elapsed = ContinuousClock.now - start
                precondition(result.count == delete.expected)
                return elapsed
            }
        }

        let container = try PersistentContainer(model: model, store: try makeStore())
        do {
            let context = container.newContext()
            fill(context, count: count)
            try context.save()
        }
        let context = container.newContext()
        var price: Int64 = 10_000
        try measure("batch update \(count) objects: set price (\(label))", iterations: 1, repetitions: 5) {
            price += 1
            let result = try context.execute(BatchUpdateRequest(Item.self, propertiesToUpdate: ["price": .int(price)]))
            precondition(result.count == count)
        }
    }

    let container = try PersistentContainer(model: model, storeDescription: .inMemory)
    do {
        let context = container.newContext()
        fill(context, count: count)
        try context.save()
    }
    var request = Item.fetchRequest()
    request.predicate = try FetchPredicate(format: "price < %d", 500)
    try measure("result kinds: fetchObjectIDs, \(count / 2) of \(count) objects (new context)", iterations: 5) {
        let ids = try container.newContext().fetchObjectIDs(request)
        precondition(ids.count == count / 2)
    }
    request.propertiesToFetch = ["name", "price"]
    try measure(
        "result kinds: fetchRows of 2 properties, \(count / 2) of \(count) objects (new context)", iterations: 5
    ) {
        let rows = try container.newContext().fetchRows(request)
        precondition(rows.count == count / 2)
    }
    try measure(
        "result kinds: fetch objects, \(count / 2) of \(count) objects (new context), for comparison", iterations: 5
    ) {
        let objects = try container.newContext().fetch(request)
        precondition(objects.count == count / 2)
    }
}
