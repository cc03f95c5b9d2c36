// The code of Predicates.md and the batch-request part of PortingFromCoreData.md, compiled here;
// GuideTests checks that every Swift block of a guide is one of these regions.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

// Predicates example 5 begin
func cheapFruitIDs(in context: ManagedContext) throws -> [ObjectID] {
    var request = Fruit.fetchRequest()
    request.predicate = try FetchPredicate(format: "price < %d", 100)
    request.sortDescriptors = [SortDescriptor(key: "price")]
    return try context.fetchObjectIDs(request)  // no objects created or registered
}
// Predicates example 5 end

// Predicates example 6 begin
func priceList(in context: ManagedContext) throws -> [String] {
    var request = Fruit.fetchRequest()
    request.propertiesToFetch = ["name", "price", "basket.label"]
    request.sortDescriptors = [SortDescriptor(key: "name")]
    return try context.fetchRows(request).map { row in
        let name = row.value(forKey: "name", as: String.self) ?? "?"
        let price = row.value(forKey: "price", as: Int64.self) ?? 0
        let basket = row.value(forKey: "basket.label", as: String.self) ?? "no basket"
        return "\(name): \(price) (\(basket))"
    }
}
// Predicates example 6 end

// PortingFromCoreData example 2 begin
func clearance(_ container: PersistentContainer) throws -> (updated: Int, deleted: Int) {
    let context = container.newContext()
    // NSBatchUpdateRequest(entityName: "Gadget") with propertiesToUpdate = ["price": 0]
    let update = BatchUpdateRequest(
        Gadget.self, predicate: try FetchPredicate(format: "name BEGINSWITH %@", "old"),
        propertiesToUpdate: ["price": 0])
    let updated = try context.execute(update)
    // NSBatchDeleteRequest(fetchRequest:)
    let delete = BatchDeleteRequest(Gadget.self, predicate: try FetchPredicate(format: "price == 0"))
    let deleted = try context.execute(delete)
    // NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:): the context is not changed in place
    context.mergeChanges(from: updated.notification)
    context.mergeChanges(from: deleted.notification)
    return (updated.count, deleted.count)
}
// PortingFromCoreData example 2 end

@Suite struct BatchRequestGuideTests {
    @Test func predicatesExamplesRun() throws {
        let (_, context) = try makeContext()
        let kitchen = Basket(context: context)
        kitchen.label = "Kitchen"
        for (name, price) in [("fig", 150), ("kiwi", 90), ("lime", 200), ("yuzu", 300)] {
            let fruit = makeFruit(context, name, price: Int64(price))
            if name != "kiwi" { fruit.basket = kitchen }
        }
        try context.save()
        #expect(try kitchenFruits(in: context).map(\.name) == ["lime", "fig"])
        #expect(try cheapFruitIDs(in: context).count == 1)
        #expect(
            try priceList(in: context) == [
                "fig: 150 (Kitchen)", "kiwi: 90 (no basket)", "lime: 200 (Kitchen)", "yuzu: 300 (Kitchen)",
            ])
    }

    @Test func portedBatchRequestsRun() throws {
        let container = try PersistentContainer.forTesting(Gadget.self)
        let context = container.newContext()
        for (name, price) in [("old lamp", 5), ("old fan", 7), ("new kettle", 30)] {
            let gadget = Gadget(context: context)
            gadget.name = name
            gadget.price = Int64(price)
        }
        try context.save()
        #expect(try clearance(container) == (2, 2))
        #expect(try context.fetch(Gadget.fetchRequest()).map(\.name) == ["new kettle"])
    }
}
