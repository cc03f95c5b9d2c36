// The expressions part of Predicates.md, compiled here; GuideTests checks that every Swift block
// of a guide is a region of these files.

import Foundation
import ObjectGraph
import Testing

// Predicates example 2 begin
func flaggedKitchenFruits(in context: ManagedContext, flag: Int64) throws -> [Fruit] {
    let predicate = try FetchPredicate(
        format: "(price & %d) == %d AND name.length >= 3 AND %K.%K == %@ AND price * 0.8 <= average:({80, 120})",
        flag, flag, "basket", "label", "Kitchen")
    // predicate.description == "price & 4 == 4 AND name.length >= 3 AND basket.label == \"Kitchen\""
    //     + " AND price * 0.8 <= average:({80, 120})" (for flag 4)
    return try context.fetch(FetchRequest<Fruit>(predicate: predicate))
}
// Predicates example 2 end

@Suite struct PredicatesGuideExpressionTests {
    @Test func theExpressionsExampleSelectsWhatItSays() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Fruit.self, Basket.self, Owner.self, Tag.self), storeDescription: .inMemory)
        let context = container.newContext()
        let kitchen = Basket(context: context)
        kitchen.label = "Kitchen"
        let hall = Basket(context: context)
        hall.label = "Hall"
        for (name, price, basket) in [
            ("fig", 100, kitchen), ("kiwi", 101, kitchen), ("ab", 100, kitchen), ("plum", 100, hall),
            ("pear", 150, kitchen), ("lime", 12, kitchen),
        ] {
            let fruit = Fruit(context: context)
            fruit.name = name
            fruit.price = Int64(price)
            fruit.basket = basket
        }
        try context.save()
        // 100, 101, 12 and 150 have the 4 bit; "ab" is too short, "plum" is in the hall, and
        // 150 * 0.8 = 120 is above the average of 80 and 120.
        #expect(try flaggedKitchenFruits(in: context, flag: 4).map(\.name).sorted() == ["fig", "kiwi", "lime"])
        let predicate = try FetchPredicate(
            format: "(price & %d) == %d AND name.length >= 3 AND %K.%K == %@ AND price * 0.8 <= average:({80, 120})",
            4, 4, "basket", "label", "Kitchen")
        #expect(
            predicate.description
                == "price & 4 == 4 AND name.length >= 3 AND basket.label == \"Kitchen\""
                + " AND price * 0.8 <= average:({80, 120})")
    }
}
