import Foundation
import Testing

@testable import ObjectGraph

/// Rows a SQL store reads for a fetch are decoded column by column into the row cache, which
/// keeps no in-memory attribute indexes; a column that does not hold its property's type is a
/// typed error naming the object and the property.
@Suite struct SQLiteRowDecodingTests {
    /// A store file with two fruits in a basket.
    private func makeStore() throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        let basket = Basket(context: context)
        basket.label = "kitchen"
        for (name, price) in [("apple", 3), ("pear", 5)] as [(String, Int64)] {
            makeFruit(context, name, price: price).basket = basket
        }
        try context.save()
        return url
    }

    private func run(_ sql: String, on url: URL) throws {
        let connection = try SQLiteConnection(url: url, readOnly: false, create: false, busyTimeout: .seconds(5))
        defer { connection.close() }
        try connection.run(sql)
    }

    // MARK: - Decoding

    @Test func fetchedRowsHoldEveryColumnAndRelationship() throws {
        let url = try makeStore()
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        let fruits = try context.fetch(Fruit.fetchRequest())
        #expect(fruits.map(\.name) == ["apple", "pear"])
        #expect(fruits.map(\.price) == [3, 5])
        #expect(fruits.allSatisfy { $0.basket?.label == "kitchen" && $0.tags.isEmpty })
        let basket = try #require(try context.fetch(Basket.fetchRequest()).first)
        #expect(basket.fruits.map(\.name).sorted() == ["apple", "pear"])
        #expect(basket.owner == nil)
    }

    @Test func anAttributeColumnOfAnotherTypeIsACorruptStoreNamingTheObjectAndProperty() throws {
        let url = try makeStore()
        try run("UPDATE \"Fruit\" SET price = 'cheap' WHERE _key = 2", on: url)
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        let error = try #require(throws: PersistenceError.self) { try context.fetch(Fruit.fetchRequest()) }
        #expect(error.code == .corruptStore && error.fileURL == url)
        #expect(error.message.contains("Fruit/2") && error.message.contains("price"))
    }

    @Test func aToOneColumnThatIsNotAKeyIsACorruptStore() throws {
        let url = try makeStore()
        try run("UPDATE \"Fruit\" SET basket = 'kitchen' WHERE _key = 1", on: url)
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        let error = try #require(throws: PersistenceError.self) { try context.fetch(Fruit.fetchRequest()) }
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("Fruit/1") && error.message.contains("basket"))
    }

    /// Keys no object can have, which a table edited by hand or damaged can hold.
    static let impossibleKeys: [Int64] = [0, -5, EntityTable.maxKey + 1, Int64.max]

    /// Each way of reading a table with an impossible key is a `corruptStore` error (at open or
    /// at the call), never a trap.
    @Test(arguments: impossibleKeys)
    func aRowWithAnImpossibleKeyIsACorruptStore(key: Int64) throws {
        let reads: [(String, (ManagedContext) throws -> Void)] = [
            ("fetch", { _ = try $0.fetch(Fruit.fetchRequest()) }),
            ("fetchObjectIDs", { _ = try $0.fetchObjectIDs(Fruit.fetchRequest()) }),
            (
                "sorted fetch",
                { context in
                    var request = Fruit.fetchRequest()
                    request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                    _ = try context.fetch(request)
                }
            ),
            ("delete all", { _ = try $0.deleteAll(Fruit.self) }),
            ("batch delete", { _ = try $0.execute(BatchDeleteRequest(entityName: "Fruit")) }),
        ]
        for (name, read) in reads {
            let url = try makeStore()
            try run("UPDATE \"Fruit\" SET _key = \(key) WHERE _key = 2", on: url)
            let error = #expect(throws: PersistenceError.self, "\(name)") {
                let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
                try read(container.newContext())
            }
            #expect(error?.code == .corruptStore, "\(name): \(error?.message ?? "")")
        }
    }

    @Test(arguments: impossibleKeys)
    func aReferenceToAnImpossibleKeyIsACorruptStoreNamingTheProperty(key: Int64) throws {
        let url = try makeStore()
        try run("UPDATE \"Fruit\" SET basket = \(key) WHERE _key = 1", on: url)
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        let error = try #require(throws: PersistenceError.self) { try context.fetch(Fruit.fetchRequest()) }
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("Fruit/1") && error.message.contains("basket"))
    }

    @Test(arguments: [0, Int64.max])
    func anImpossibleNextKeyIsACorruptStore(next: Int64) throws {
        let url = try makeStore()
        try run("UPDATE \"\(SQLStoreSchema.keysTable)\" SET next = \(next)", on: url)
        let error = #expect(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        }
        #expect(error?.code == .corruptStore)
    }

    // MARK: - The row cache

    @Test func theRowCacheOfAQueryingStoreKeepsNoAttributeIndexes() throws {
        let url = try makeStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        #expect(try context.fetch(Fruit.fetchRequest()).count == 2)
        let fruitIndex = try #require(TestModels.fruits.info(named: "Fruit")).index
        let cache = container.coordinator.snapshot()
        #expect(cache.tables[fruitIndex].count == 2)
        #expect(cache.tables[fruitIndex].indexes.isEmpty, "Fruit.name is indexed in SQL, not in the cache")
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "name == 'pear'")
        #expect(try context.fetch(request).map(\.price) == [5])
    }
}
