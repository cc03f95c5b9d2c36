import Foundation
import ObjectGraph

/// `Item`'s attributes with an index on `name` and one on `price`.
final class IndexedItem: ManagedObject {
    @Attribute(indexed: true) var name = ""
    @Attribute(indexed: true) var price: Int64 = 0
    @Attribute var weight = 0.0
}

/// The same attributes with an index on `price` only.
final class PriceIndexedItem: ManagedObject {
    @Attribute var name = ""
    @Attribute(indexed: true) var price: Int64 = 0
    @Attribute var weight = 0.0
}

/// The same attributes without an index.
final class UnindexedItem: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Attribute var weight = 0.0
}

/// The issue 4 fetch targets on `count` objects whose names begin with one of 26 letters
/// (`"q item 16"`) and whose prices repeat every 1,000 (as in the GRDB comparison's W4), in
/// in-memory stores filled outside the timing. Run with `--only "issue 4"`.
///
/// Each fetch runs either in one long-lived context that has fetched the same objects before
/// ("existing context": the objects are registered, the fetch finds them, as a view context
/// that refreshes a list does) or in a new context per iteration ("new context": every
/// returned object is created). Both include compiling the predicate and the sort.
func runIndexBenchmarks(count: Int) throws {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    func fill(_ type: ManagedObject.Type, _ insert: (ManagedContext, String, Int64, Double) -> Void) throws
        -> PersistentContainer
    {
        let container = try PersistentContainer(model: ManagedObjectModel(type), storeDescription: .inMemory)
        let context = container.newContext()
        for index in 0..<count {
            insert(context, "\(letters[index % 26]) item \(index)", Int64(index % 1_000), Double(index) / 10)
        }
        try context.save()
        return container
    }
    let indexed = try fill(IndexedItem.self) { context, name, price, weight in
        let item = IndexedItem(context: context)
        (item.name, item.price, item.weight) = (name, price, weight)
    }
    let priceIndexed = try fill(PriceIndexedItem.self) { context, name, price, weight in
        let item = PriceIndexedItem(context: context)
        (item.name, item.price, item.weight) = (name, price, weight)
    }
    let plain = try fill(UnindexedItem.self) { context, name, price, weight in
        let item = UnindexedItem(context: context)
        (item.name, item.price, item.weight) = (name, price, weight)
    }

    /// Times `request` in an existing context (warmed by one fetch) and in new contexts.
    func fetches<Object: ManagedObject>(
        _ label: String, _ container: PersistentContainer, _ request: FetchRequest<Object>, expected: Int,
        iterations: Int
    ) throws {
        let names = ["existing", "new"].map { "(issue 4) \(label), \(expected) of \(count), \($0) context" }
        guard names.contains(where: isSelected) else { return }
        let existing = container.newContext()
        let warm = try existing.fetch(request).count
        precondition(warm == expected)
        try measure(names[0], iterations: iterations) {
            let found = try existing.fetch(request).count
            precondition(found == expected)
        }
        try measure(names[1], iterations: iterations) {
            let found = try container.newContext().fetch(request).count
            precondition(found == expected)
        }
    }

    let targetIndex = count / 2 + 16
    let target = "\(letters[targetIndex % 26]) item \(targetIndex)"
    let equality = try FetchPredicate(format: "name == %@", target)
    try fetches(
        "equality fetch name == %@ (indexed)", indexed, FetchRequest<IndexedItem>(predicate: equality), expected: 1,
        iterations: 10_000)
    try fetches(
        "equality fetch name == %@ (no index)", plain, FetchRequest<UnindexedItem>(predicate: equality), expected: 1,
        iterations: 20)

    let range = try FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH %@", "a")
    let byPrice = [SortDescriptor(key: "price", ascending: true)]
    let expected = (0..<count).filter { (100...200).contains($0 % 1_000) && $0 % 26 == 0 }.count
    try fetches(
        "price BETWEEN {100, 200} AND name BEGINSWITH 'a' sorted by price (index on price)", priceIndexed,
        FetchRequest<PriceIndexedItem>(predicate: range, sortDescriptors: byPrice), expected: expected,
        iterations: 1_000)
    try fetches(
        "price BETWEEN {100, 200} AND name BEGINSWITH 'a' sorted by price (indexes on price and name)", indexed,
        FetchRequest<IndexedItem>(predicate: range, sortDescriptors: byPrice), expected: expected,
        iterations: 1_000)
    try fetches(
        "price BETWEEN {100, 200} AND name BEGINSWITH 'a' sorted by price (no index)", plain,
        FetchRequest<UnindexedItem>(predicate: range, sortDescriptors: byPrice), expected: expected, iterations: 50)

    for (label, sort) in [
        ("weight descending (Double)", SortDescriptor(key: "weight", ascending: false)),
        ("price (Int64, ties)", SortDescriptor(key: "price", ascending: true)),
        ("name (String)", SortDescriptor(key: "name", ascending: true)),
    ] {
        try fetches(
            "sort all by \(label), no index", plain, FetchRequest<UnindexedItem>(sortDescriptors: [sort]),
            expected: count,
            iterations: 1)
        // The sort without objects: the committed rows' IDs in the sorted order.
        let context = plain.newContext()
        try measure("(issue 4) sort all by \(label), no index, \(count) object IDs (fetchObjectIDs)", iterations: 3) {
            let found = try context.fetchObjectIDs(FetchRequest<UnindexedItem>(sortDescriptors: [sort])).count
            precondition(found == count)
        }
    }

    // A save with indexes: both indexed values of one object change (each index moves an entry).
    let editor = indexed.newContext()
    var firstRequest = FetchRequest<IndexedItem>()
    firstRequest.fetchLimit = 1
    let first = try editor.fetch(firstRequest)[0]
    var step: Int64 = 0
    try measure(
        "(issue 4) change one object's indexed name and price + save, on a \(count)-object store (2 indexes)",
        iterations: 1_000
    ) {
        step += 1
        first.price = step % 1_000
        first.name = "\(letters[Int(step % 26)]) item \(step)"
        try editor.save()
    }

    // The first prefix scan of a store also builds its prefix column of `name` (a read of every
    // row); the "no index" rows above show the fetches after it.
    let firstScan =
        "(issue 4) first name BEGINSWITH 'q' fetch of a new \(count)-object store, no index (builds the column)"
    if isSelected(firstScan) {
        let prefixed = (0..<count).filter { letters[$0 % 26] == "q" }.count
        let request = FetchRequest<UnindexedItem>(predicate: try FetchPredicate(format: "name BEGINSWITH %@", "q"))
        try measureTimed(firstScan, iterations: 1, repetitions: 3) {
            let store = try fill(UnindexedItem.self) { context, name, price, weight in
                let item = UnindexedItem(context: context)
                (item.name, item.price, item.weight) = (name, price, weight)
            }
            let context = store.newContext()
            let clock = ContinuousClock()
            let start = clock.now
            let found = try context.fetch(request).count
            let elapsed = clock.now - start
            precondition(found == prefixed)
            return elapsed
        }
    }

    let clauses = "price BETWEEN {100, 200} AND name BEGINSWITH[c] %@ AND weight > 10.5 AND NOT (name IN {'x', 'y'})"
    let date = Date(timeIntervalSinceReferenceDate: 0)
    let format = clauses + " AND createdAt < %@"
    var parsed: FetchPredicate?
    try measure("(issue 4) parse a 5-clause format string (with 2 arguments)", iterations: 10_000) {
        parsed = try FetchPredicate(format: format, "a", date)
    }
    withExtendedLifetime(parsed) {}
}
