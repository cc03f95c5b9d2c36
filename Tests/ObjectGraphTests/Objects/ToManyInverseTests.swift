import Foundation
import ObjectGraph
import Testing

/// The inverse side of a to-one relationship grows and shrinks in place; these tests pin what
/// that must keep: sorted, duplicate-free IDs, exact rollback, and saved state.
@Suite struct ToManyInverseTests {
    @Test func manyChildrenJoinOneParentInKeyOrderWithoutDuplicates() throws {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        let fruits = (0..<5_000).map { makeFruit(context, "fruit \($0)") }
        for fruit in fruits.reversed() { fruit.basket = basket }
        for fruit in fruits.prefix(10) { fruit.basket = basket }  // setting again changes nothing
        #expect(basket.fruits.count == 5_000)
        let keys = try (basket.value(forKey: "fruits") as? Set<ManagedObject> ?? []).map(\.objectID.key).sorted()
        #expect(keys == fruits.map(\.objectID.key).sorted())
        try context.save()
        let reader = container.newContext()
        let stored = try #require(try reader.existingObject(with: basket.objectID) as? Basket)
        #expect(stored.fruits.count == 5_000)
    }

    @Test func movingChildrenBetweenParentsUpdatesBothSidesAndRollsBack() throws {
        let (_, context) = try makeContext()
        let first = Basket(context: context)
        let second = Basket(context: context)
        let fruits = (0..<20).map { makeFruit(context, "fruit \($0)") }
        for fruit in fruits { fruit.basket = first }
        try context.save()
        for fruit in fruits where fruit.price == 100 && fruit.objectID.key % 2 == 0 { fruit.basket = second }
        #expect(first.fruits.count == 10)
        #expect(second.fruits.count == 10)
        #expect(first.fruits.isDisjoint(with: second.fruits))
        fruits[0].basket = nil  // key 1: still in the first basket
        #expect(first.fruits.count == 9)
        context.rollback()
        #expect(first.fruits.count == 20)
        #expect(second.fruits.isEmpty)
        #expect(fruits.allSatisfy { $0.basket === first })
        #expect(!context.hasChanges)
    }
}
