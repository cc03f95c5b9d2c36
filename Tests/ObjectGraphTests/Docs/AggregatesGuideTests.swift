import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct AggregatesGuideTests {
    @Test func basketTotalsGroupHavingAndSort() throws {
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self, Owner.self, Tag.self)
        let context = container.newContext()
        let baskets = ["small", "big", "single"].map { label in
            let basket = Basket(context: context)
            basket.label = label
            return basket
        }
        for (name, price, basket) in [
            ("apple", 3, 0), ("pear", 4, 0), ("melon", 9, 1), ("kiwi", 2, 1), ("fig", 5, 2), ("lime", 1, -1),
            ("plum", 2, -1),
        ] {
            let fruit = Fruit(context: context)
            (fruit.name, fruit.price) = (name, Int64(price))
            fruit.basket = basket >= 0 ? baskets[basket] : nil
        }
        try context.save()
        let totals = try basketTotals(in: context)
        #expect(totals.map(\.basket) == ["big", "small", "no basket"])
        #expect(totals.map(\.fruits) == [2, 2, 2])
        #expect(totals.map(\.total) == [11, 7, 3])
    }
}
