import Foundation
import Testing

@testable import ObjectGraph

/// A fetch on a SQLite store sees one committed state, whenever another connection commits.
@Suite struct SQLiteFetchConsistencyTests {
    /// Fetches the fruits that `format` matches while another container saves after the
    /// fetch's `transaction`th read transaction: renaming `fruit 1` and inserting `fruit 9`.
    /// Returns the names the fetch found, the names before the save and the names after it.
    private func fetchWhileAnotherConnectionSaves(_ format: String, afterTransaction transaction: Int) throws -> (
        found: [String], before: [String], after: [String]
    ) {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        do {
            let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
            for index in 0..<6 { makeFruit(context, "fruit \(index)", price: Int64(index)) }
            try context.save()
        }
        let writer = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let store = RowCountingStore(url: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: format)
        request.sortDescriptors = [SortDescriptor(key: "name")]
        func names(_ container: PersistentContainer) throws -> [String] {
            try container.newContext().fetch(request).map(\.name)
        }
        let before = try names(writer)
        let saveError = Locked<(any Error)?>(nil)
        store.afterReadTransaction(transaction) {
            do {
                let context = writer.newContext()
                var first = Fruit.fetchRequest()
                first.predicate = try FetchPredicate(format: "name == 'fruit 1'")
                try context.fetch(first).first?.name = "fruit 1 renamed"
                makeFruit(context, "fruit 9", price: 9)
                try context.save()
            } catch {
                saveError.withLock { $0 = error }
            }
        }
        let found = try names(container)
        if let error = saveError.withLock({ $0 }) { throw error }
        return (found, before, try names(writer))
    }

    @Test(arguments: 1...3)
    func aFetchTheEngineFinishesSeesOneStateWhenAnotherConnectionSavesDuringIt(transaction: Int) throws {
        // `length` does not translate: SQL narrows to `price > 0`, the engine decides.
        let result = try fetchWhileAnotherConnectionSaves(
            "price > 0 AND name.length > 3", afterTransaction: transaction)
        #expect(result.before != result.after)
        #expect(result.found == result.before || result.found == result.after, "\(result.found)")
    }

    @Test(arguments: 1...3)
    func anExactFetchSeesOneStateWhenAnotherConnectionSavesDuringIt(transaction: Int) throws {
        let result = try fetchWhileAnotherConnectionSaves("price > 0", afterTransaction: transaction)
        #expect(result.found == result.before || result.found == result.after, "\(result.found)")
    }
}
