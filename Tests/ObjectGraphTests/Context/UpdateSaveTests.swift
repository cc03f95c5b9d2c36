import Foundation
import Testing

@testable import ObjectGraph

/// Saving changed objects: what the save's path for updates written as they are must keep.
@Suite struct UpdateSaveTests {
    private func makeStore(count: Int) throws -> PersistentContainer {
        let container = try PersistentContainer(
            model: TestModels.fruits, storeDescription: .inMemory)
        let filler = container.newContext()
        for index in 0..<count {
            let fruit = Fruit(context: filler)
            fruit.name = "fruit \(index)"
            fruit.price = Int64(index)
        }
        try filler.save()
        return container
    }

    private func fetchAll(_ context: ManagedContext) throws -> [Fruit] {
        var request = Fruit.fetchRequest()
        request.sortDescriptors = [SortDescriptor(\Fruit.price)]
        return try context.fetch(request)
    }

    // MARK: - Updates written as they are

    @Test func updatesInAnyOrderAreSavedAtTheNextVersionInKeyOrder() throws {
        let container = try makeStore(count: 1_500)
        let context = container.newContext()
        let fruits = try fetchAll(context)
        var generator = SeededGenerator(seed: 7)
        let changed = fruits.shuffled(using: &generator).prefix(700)
        for fruit in changed { fruit.price += 10_000 }
        // Set back: touched, but not updated, so not written.
        let setBack = fruits.first { fruit in !changed.contains { $0 === fruit } }!
        setBack.price += 1
        setBack.price -= 1
        #expect(context.updatedObjects.count == 700)

        try context.save()

        #expect(!context.hasChanges && context.updatedObjects.isEmpty)
        for fruit in changed {
            #expect(fruit.version == 2 && !fruit.isUpdated)
            #expect(fruit.committedValues(forKeys: ["price"])["price"] as? Int64 == fruit.price)
        }
        #expect(setBack.version == 1)
        let reader = container.newContext()
        for fruit in try fetchAll(reader) {
            let wasChanged = fruit.price >= 10_000
            #expect(fruit.version == (wasChanged ? 2 : 1))
        }
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price >= 10000")
        #expect(try reader.count(for: request) == 700)

        // A second round writes the next version again.
        for fruit in changed.prefix(5) { fruit.name += "!" }
        try context.save()
        #expect(changed.prefix(5).allSatisfy { $0.version == 3 } && changed.dropFirst(5).allSatisfy { $0.version == 2 })
    }

    @Test func anObjectRefreshedAndChangedAgainIsWrittenOnce() throws {
        let container = try makeStore(count: 40)
        let context = container.newContext()
        let fruits = try fetchAll(context)
        for fruit in fruits { fruit.price += 100 }
        for fruit in fruits.prefix(30) { context.refresh(fruit, mergeChanges: false) }
        #expect(context.updatedObjects.count == 10)
        for fruit in fruits.prefix(3) { fruit.name = "again" }
        #expect(context.updatedObjects.count == 13)
        try context.save()
        #expect(fruits.prefix(3).allSatisfy { $0.version == 2 && $0.name == "again" && $0.price < 100 })
        #expect(fruits[3..<30].allSatisfy { $0.version == 1 })
        #expect(fruits.suffix(10).allSatisfy { $0.version == 2 && $0.price >= 100 })
    }

    @Test func aFailedSaveLeavesTheChangedObjectsChangedAndUnsaved() throws {
        let container = try makeStore(count: 20)
        let context = container.newContext()
        let fruits = try fetchAll(context)
        let other = container.newContext()
        let stale = try #require(try fetchAll(other).last)
        stale.price = -1
        try other.save()
        for fruit in fruits { fruit.price += 1_000 }
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(context.updatedObjects.count == 20)
        #expect(fruits.allSatisfy { $0.version == 1 && $0.isUpdated && $0.price >= 1_000 })
        context.refresh(fruits[19], mergeChanges: true)
        try context.save()
        // The refreshed one was at version 2 (the other context's save) and is now at 3.
        #expect(fruits.dropLast().allSatisfy { $0.version == 2 && !$0.isUpdated })
        #expect(fruits[19].version == 3 && fruits[19].price == 1_019 && !context.hasChanges)
    }
}
