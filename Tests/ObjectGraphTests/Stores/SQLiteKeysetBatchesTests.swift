import Foundation
import Testing

@testable import ObjectGraph

@Suite struct SQLiteKeysetBatchesTests {
    /// Items with optional, duplicated values: names, grades, weights (NaN among them) and dates.
    static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: true),
                AttributeDescription(name: "grade", type: .integer64, isOptional: true),
                AttributeDescription(name: "weight", type: .double, isOptional: true),
                AttributeDescription(name: "made", type: .date, isOptional: true),
            ])
    ])

    /// A SQLite store of `count` items with random values (a fixed seed), and its URL.
    func makeItems(count: Int) throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent("items.sqlite")
        let container = try PersistentContainer(model: Self.model, store: SQLiteStore(url: url))
        let context = container.newContext()
        let entity = try #require(Self.model.entity(named: "Item"))
        var generator = SeededGenerator(seed: 22)
        let names: [String?] = [nil, "apple", "Apple", "banana", "Éclair", "cherry", "apple"]
        let weights: [Double?] = [nil, .nan, -1.5, 0, 2.25, 2.25, .infinity]
        for _ in 0..<count {
            let item = ManagedObject(entity: entity, insertInto: context)
            try item.setValue(names.randomElement(using: &generator)!, forKey: "name")
            let grade = Int64.random(in: -1...4, using: &generator)
            try item.setValue(grade < 0 ? nil : grade, forKey: "grade")
            try item.setValue(weights.randomElement(using: &generator)!, forKey: "weight")
            let day = Int.random(in: -1...3, using: &generator)
            try item.setValue(day < 0 ? nil : Date(timeIntervalSince1970: Double(day) * 86_400), forKey: "made")
        }
        try context.save()
        return url
    }

    @Test(arguments: [
        [FetchSortDescriptor(key: "grade")],
        [FetchSortDescriptor(key: "grade", ascending: false), FetchSortDescriptor(key: "name")],
        [FetchSortDescriptor(key: "name", ascending: false, comparison: .caseInsensitive)],
        [FetchSortDescriptor(key: "weight", ascending: false), FetchSortDescriptor(key: "made")],
        [
            FetchSortDescriptor(key: "made", ascending: false), FetchSortDescriptor(key: "weight"),
            FetchSortDescriptor(key: "grade"),
        ],
        [],
    ])
    func pagesEqualTheOneShotFetchWithNullsTiesAndDescendingSorts(sort: [FetchSortDescriptor]) throws {
        let store = RowCountingStore(url: try makeItems(count: 400))
        let container = try PersistentContainer(model: Self.model, store: store)
        let context = container.newContext()
        for (format, limit, offset) in [("grade != 2", 0, 0), ("weight > 0 OR name == nil", 75, 3), ("", 0, 10)] {
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = format.isEmpty ? nil : try FetchPredicate(format: format)
            request.sortDescriptors = sort
            request.fetchLimit = limit
            request.fetchOffset = offset
            request.fetchBatchSize = 7
            let expected = try context.fetchObjectIDs(request)
            var batches = try context.fetchBatches(request)
            #expect(batches.ids.isEmpty, "selected page by page, not up front")
            var visited: [ObjectID] = []
            store.resetCounts()
            while let page = batches.next() {
                #expect(batches.heldIDCount <= 7)
                #expect(store.rowsRead <= 7, "\(store.rowsRead) rows read for one page")
                store.resetCounts()
                visited += page.map(\.objectID)
            }
            #expect(batches.error == nil)
            #expect(visited == expected, "\(format) sorted by \(sort)")
        }
    }

    @Test func aPageReadFailingEndsTheIterationWithItsError() throws {
        let url = try makeItems(count: 30)
        let store = SQLiteStore(url: url)
        let container = try PersistentContainer(model: Self.model, store: store)
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.fetchBatchSize = 10
        var batches = try container.newContext().fetchBatches(request)
        #expect(batches.next()?.count == 10)
        store.close()
        #expect(batches.next() == nil)
        #expect(batches.error?.code == .storeClosed)
    }

    @Test func pendingChangesOfTheEntityKeepTheIDsSelectedUpFront() throws {
        let container = try PersistentContainer(model: Self.model, store: SQLiteStore(url: try makeItems(count: 30)))
        let context = container.newContext()
        _ = ManagedObject(entity: try #require(Self.model.entity(named: "Item")), insertInto: context)
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.fetchBatchSize = 10
        let batches = try context.fetchBatches(request)
        #expect(batches.ids.count == 31)
        #expect(Array(batches).flatMap { $0 }.map(\.objectID) == (try context.fetchObjectIDs(request)))
    }
}
