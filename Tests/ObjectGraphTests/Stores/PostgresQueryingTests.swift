import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// A container on a PostgreSQL store reads rows when it needs them, as on SQLite: the querying
/// seam (`SQLEngineStore`), with the parts of a fetch PostgreSQL cannot decide left to the engine.
@Suite(
    .enabled(if: PostgresTestStore.isEnabled, "set OBJECTGRAPH_POSTGRES_URL (scripts/postgres-server.sh start)"),
    .dropsPostgresSchemas)
struct PostgresQueryingTests {
    /// A store schema holding `baskets` baskets of `fruitsPerBasket` fruits each, saved by a
    /// container that is gone when this returns.
    private func makeSchema(baskets: Int, fruitsPerBasket: Int) throws -> String {
        let schema = PostgresTestStore.uniqueSchema()
        let container = try PersistentContainer(
            model: TestModels.fruits, store: PostgresTestStore.makeStore(schema: schema))
        let context = container.newContext()
        for basketNumber in 0..<baskets {
            let basket = Basket(context: context)
            basket.label = "basket \(basketNumber)"
            for fruitNumber in 0..<fruitsPerBasket {
                let fruit = Fruit(context: context)
                fruit.name = "fruit \(basketNumber * fruitsPerBasket + fruitNumber)"
                fruit.price = Int64(fruitNumber)
                fruit.basket = basket
            }
        }
        try context.save()
        return schema
    }

    private func open(_ schema: String) throws -> PersistentContainer {
        try PersistentContainer(model: TestModels.fruits, store: PostgresTestStore.makeStore(schema: schema))
    }

    private func cachedRows(_ container: PersistentContainer) -> Int {
        container.coordinator.snapshot().count
    }

    // MARK: - Reading rows when they are needed

    @Test func openingReadsNoRowsAndAFetchReadsAboutTheRowsItReturns() throws {
        let container = try open(try makeSchema(baskets: 10, fruitsPerBasket: 100))
        #expect(container.coordinator.querying != nil)
        #expect(cachedRows(container) == 0)
        var request = Fruit.fetchRequest()
        request.fetchLimit = 10
        request.fetchOffset = 500
        #expect(try container.newContext().fetch(request).map(\.name) == (500..<510).map { "fruit \($0)" })
        #expect(cachedRows(container) == 10)
    }

    @Test func countsRunInTheDatabaseWithTheContextsPendingChanges() throws {
        let container = try open(try makeSchema(baskets: 3, fruitsPerBasket: 10))
        let context = container.newContext()
        #expect(try context.count(for: Fruit.fetchRequest()) == 30)
        var cheap = Fruit.fetchRequest()
        cheap.predicate = try FetchPredicate(format: "price < 4")
        #expect(try context.count(for: cheap) == 12)
        #expect(cachedRows(container) == 0)
        Fruit(context: context).name = "extra"
        #expect(try context.count(for: Fruit.fetchRequest()) == 31)
    }

    @Test func relationshipsAreReadWhenFirstUsed() throws {
        let container = try open(try makeSchema(baskets: 5, fruitsPerBasket: 50))
        let context = container.newContext()
        var request = Fruit.fetchRequest()
        request.fetchLimit = 1
        request.fetchOffset = 60
        let fruit = try #require(try context.fetch(request).first)
        #expect(cachedRows(container) == 1)
        let basket = try #require(fruit.basket)
        #expect(basket.label == "basket 1")
        #expect(basket.fruits.count == 50)
        #expect(cachedRows(container) == 51)
    }

    // MARK: - What PostgreSQL leaves to the engine

    @Test func aStringSortPostgreSQLCannotOrderIsSortedByTheEngine() throws {
        let container = try open(try makeSchema(baskets: 2, fruitsPerBasket: 30))
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price >= 25")
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: false)]
        request.fetchLimit = 3
        let names = try container.newContext().fetch(request).map(\.name)
        #expect(names == ["fruit 59", "fruit 58", "fruit 57"])
        #expect(cachedRows(container) == 10, "the rows SQL selected, not the table")
    }

    @Test func stringsWithTheCharactersPostgreSQLStoresEscapedAreFound() throws {
        let container = try open(try makeSchema(baskets: 0, fruitsPerBasket: 0))
        let context = container.newContext()
        for name in ["\u{1}", "a\u{0}b", "a", "\u{2}"] { makeFruit(context, name) }
        try context.save()
        let reader = try open(schema(of: container))
        for name in ["\u{1}", "a\u{0}b", "a"] {
            var request = Fruit.fetchRequest()
            request.predicate = try FetchPredicate(format: "name == %@", name)
            #expect(try reader.newContext().fetch(request).map(\.name) == [name])
            request.predicate = try FetchPredicate(format: "name IN %@", [name, "zz"])
            #expect(try reader.newContext().count(for: request) == 1)
        }
    }

    @Test func realBoundsOnIntegerAttributesCompareExactly() throws {
        let container = try open(try makeSchema(baskets: 1, fruitsPerBasket: 6))
        let context = container.newContext()
        makeFruit(context, "largest", price: .max)
        try context.save()
        for (format, expected) in [
            ("price >= 9.223372036854775807e18", 0), ("price > 2.5", 4), ("price <= 2.5", 3), ("price == 2.5", 0),
            ("price != 2.0", 6), ("price BETWEEN {1.5, 3.5}", 2), ("price IN {1.0, 2.5, 4}", 2),
        ] {
            var request = Fruit.fetchRequest()
            request.predicate = try FetchPredicate(format: format)
            #expect(try open(schema(of: container)).newContext().count(for: request) == expected, "\(format)")
        }
    }

    /// The schema of the PostgreSQL store of `container`.
    private func schema(of container: PersistentContainer) -> String {
        (container.coordinator.store as? PostgresStore)?.schema ?? ""
    }
}
