// Compiled examples of Docs/Predicates.md: each region is a Swift block of the guide, verbatim
// (see GuideTests).

import Foundation
import ObjectGraph
import Testing

// Predicates example 1 begin
func kitchenFruits(in context: ManagedContext) throws -> [Fruit] {
    var request = Fruit.fetchRequest()
    request.predicate = try FetchPredicate(format: "basket.label == %@ AND price BETWEEN {%d, %d}", "Kitchen", 100, 200)
    request.sortDescriptors = [SortDescriptor(key: "price", ascending: false), SortDescriptor(key: "name")]
    request.fetchLimit = 20
    return try context.fetch(request)
}
// Predicates example 1 end

// Predicates example 3 begin
func expensiveApples(in context: ManagedContext) throws -> [Fruit] {
    let minimum: Int64 = 100
    var request = Fruit.fetchRequest()
    request.predicate = FetchPredicate(#Predicate<Fruit> { $0.price > minimum && $0.name.starts(with: "a") })
    // request.predicate?.description == #"price > 100 AND name BEGINSWITH "a""#
    return try context.fetch(request)
}
// Predicates example 3 end

// Predicates example 4 begin
func longNamedFruits(in context: ManagedContext) throws -> [Fruit] {
    let predicate = FetchPredicate(#Predicate<Fruit> { $0.price > 0 && $0.name.count > 10 })
    // predicate.evaluatesInSwift == true
    // predicate.description == "price > 0 AND #Predicate<Fruit>"
    return try context.fetch(FetchRequest<Fruit>(predicate: predicate))
}
// Predicates example 4 end

@Suite struct PredicatesGuideTests {
    @Test func examplesDoWhatTheGuideSays() throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let context = container.newContext()
        let kitchen = Basket(context: context)
        kitchen.label = "Kitchen"
        for (name, price) in [("apple", 150), ("avocado", 90), ("banana", 120), ("apricot from the valley", 300)] {
            let fruit = Fruit(context: context)
            fruit.name = name
            fruit.price = Int64(price)
            fruit.basket = name == "banana" || name == "apple" ? kitchen : nil
        }
        try context.save()
        #expect(try kitchenFruits(in: context).map(\.name) == ["apple", "banana"])
        #expect(try expensiveApples(in: context).map(\.name) == ["apple", "apricot from the valley"])
        #expect(try longNamedFruits(in: context).map(\.name) == ["apricot from the valley"])
        let minimum: Int64 = 100
        let converted = FetchPredicate(#Predicate<Fruit> { $0.price > minimum && $0.name.starts(with: "a") })
        #expect(converted.description == #"price > 100 AND name BEGINSWITH "a""#)
        let fallback = FetchPredicate(#Predicate<Fruit> { $0.price > 0 && $0.name.count > 10 })
        #expect(fallback.evaluatesInSwift)
        #expect(fallback.description == "price > 0 AND #Predicate<Fruit>")
    }
}
