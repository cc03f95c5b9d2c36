import Foundation
import Testing

@testable import ObjectGraph

/// A container on a SQLite store catches up with other processes' saves without reading the
/// rows of objects nobody holds, and says so when it cannot.
@Suite struct SQLiteExternalChangesTests {
    private func makeStore(fruits: Int) throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        for index in 0..<fruits { makeFruit(context, "fruit \(index)", price: Int64(index)) }
        try context.save()
        return url
    }

    private func fruit(named name: String, in context: ManagedContext) throws -> Fruit? {
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "name == %@", name)
        return try context.fetch(request).first
    }

    @Test func anotherConnectionsSaveReadsOnlyTheRowsOfObjectsAContextHolds() throws {
        let url = try makeStore(fruits: 1_000)
        let store = RowCountingStore(url: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        context.automaticallyMergesChanges = true
        let held = try #require(try fruit(named: "fruit 1", in: context))
        var everything = Fruit.fetchRequest()
        everything.fetchLimit = 100
        _ = try context.fetch(everything)  // cached rows that no object holds any more

        let writer = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        try writer.newContext().execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": .int(7)]))
        store.resetCounts()
        #expect(try context.count(for: Fruit.fetchRequest()) == 1_000)
        #expect(held.price == 7)
        #expect(store.rowsRead <= 1, "\(store.rowsRead) rows read")
        // A cached row of the changed objects was let go: reading it again gives the new state.
        #expect(try fruit(named: "fruit 50", in: context)?.price == 7)
    }

    @Test func deletesAndInsertsOfAnotherConnectionReachTheContext() throws {
        let url = try makeStore(fruits: 10)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        context.automaticallyMergesChanges = true
        let doomed = try #require(try fruit(named: "fruit 3", in: context))
        let writer = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        try writer.delete(#require(try fruit(named: "fruit 3", in: writer)))
        makeFruit(writer, "fruit 10")
        try writer.save()
        #expect(try context.count(for: Fruit.fetchRequest()) == 10)
        #expect(doomed.isDeleted)
        #expect(try fruit(named: "fruit 10", in: context) != nil)
    }

    @Test func aFailingCheckForOtherSavesFailsTheNextFetchAndSaveUntilItSucceeds() throws {
        let url = try makeStore(fruits: 3)
        let store = RowCountingStore(url: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let writer = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        makeFruit(writer, "fruit 3")
        try writer.save()

        store.failsExternalChecks.withLock { $0 = PersistenceError.storeLocked(url) }
        let fetchError = #expect(throws: PersistenceError.self) { try context.fetch(Fruit.fetchRequest()) }
        #expect(fetchError?.code == .storeLocked)
        #expect(fetchError?.fileURL == url)
        makeFruit(context, "fruit 4")
        let saveError = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(saveError?.code == .storeLocked)
        #expect(context.hasChanges)

        store.failsExternalChecks.withLock { $0 = nil }
        try context.save()
        #expect(try context.count(for: Fruit.fetchRequest()) == 5)
        #expect(try fruit(named: "fruit 3", in: context) != nil)
    }
}
