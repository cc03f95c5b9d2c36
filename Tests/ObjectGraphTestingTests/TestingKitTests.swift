import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

final class Fruit: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Attribute var pickedAt: Date?
    @Relationship(inverse: "fruits") var basket: Basket?
}

final class Basket: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "basket") var fruits: Set<Fruit>
}

@Suite struct TestContainerTests {
    @Test func oneLineContainerIsEmptyAndIsolated() throws {
        let first = try PersistentContainer.forTesting(Fruit.self, Basket.self) { context in
            Fruit(context: context).name = "apple"
        }
        let second = try PersistentContainer.forTesting(Fruit.self, Basket.self)
        #expect(try first.newContext().count(for: Fruit.fetchRequest()) == 1)
        #expect(try second.newContext().count(for: Fruit.fetchRequest()) == 0)
        #expect(first.store !== second.store)
    }

    @Test func seedIsSavedAndItsErrorsSurface() throws {
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self) { context in
            for name in ["a", "b", "c"] { Fruit(context: context).name = name }
        }
        try container.newContext().expectNoUnsavedChanges()
        struct SeedFailed: Error {}
        #expect(throws: SeedFailed.self) {
            try PersistentContainer.forTesting(Fruit.self, Basket.self) { _ in throw SeedFailed() }
        }
    }

    @Test func fixtureSeedsObjectsWithRelationshipsAndDates() throws {
        let url = try #require(
            Bundle.module.url(forResource: "fruits", withExtension: "json", subdirectory: "Fixtures"))
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self, fixture: url)
        try container.expectStore(
            holds: "Fruit",
            [
                ["name": "apple", "price": 120, "pickedAt": Date(timeIntervalSince1970: 1_788_249_600)],
                ["name": "pear", "price": 80, "pickedAt": nil], ["name": "fig"],
            ])
        let context = container.newContext()
        let kitchen = try #require(try context.fetch(Basket.fetchRequest()).first)
        #expect(kitchen.fruits.map(\.name).sorted() == ["apple", "pear"])
    }

    @Test func badFixturesExplainThemselves() throws {
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self)
        let cases: [(String, String)] = [
            ("[1]", "A fixture is a JSON object"),
            ("{\"Vegetable\": []}", "'Vegetable' is not in the model"),
            ("{\"Fruit\": [{\"colour\": 1}]}", "no attribute or relationship 'colour'"),
            ("{\"Fruit\": [{\"basket\": \"nowhere\"}]}", "no object has \"$id\" nowhere"),
            ("{\"Fruit\": [{\"pickedAt\": \"yesterday\"}]}", "not an ISO 8601 date"),
        ]
        for (json, message) in cases {
            let context = container.newContext()
            do {
                try Fixture(data: Data(json.utf8)).insert(into: context)
                Issue.record("\(json) was accepted")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}

@Suite struct FaultInjectingStoreTests {
    @Test func failsTheChosenSaveAndNothingChanges() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer.forTesting(
            model: try ManagedObjectModel(Fruit.self, Basket.self), store: store)
        let context = container.newContext()
        store.failSave(number: 2)
        Fruit(context: context).name = "first"
        try context.save()
        let second = Fruit(context: context)
        second.name = "second"
        #expect(throws: FaultInjectingStore.Fault.diskFull) { try context.save() }
        #expect(second.isInserted && context.hasChanges)
        try container.expectStore(holds: "Fruit", [["name": "first"]])
        try context.save()
        try container.expectStore(holds: "Fruit", [["name": "first"], ["name": "second"]])
        #expect(store.saveAttempts == 3 && store.failedSaves == 1)
    }

    @Test func everySaveAndLoadFailUntilCleared() throws {
        let store = FaultInjectingStore()
        let model = try ManagedObjectModel(Fruit.self, Basket.self)
        store.failLoad(with: FaultInjectingStore.Fault.corruptFile)
        #expect(throws: FaultInjectingStore.Fault.corruptFile) { try PersistentContainer(model: model, store: store) }
        store.clearFaults()
        let container = try PersistentContainer(model: model, store: store)
        let context = container.newContext()
        store.failEverySave(with: FaultInjectingStore.Fault.ioFailure)
        Fruit(context: context).name = "x"
        for _ in 0..<3 { #expect(throws: FaultInjectingStore.Fault.ioFailure) { try context.save() } }
        store.clearFaults()
        try context.save()
    }

    @Test func delaysSaves() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer.forTesting(
            model: try ManagedObjectModel(Fruit.self, Basket.self), store: store)
        store.delay(saves: .milliseconds(30))
        let context = container.newContext()
        Fruit(context: context).name = "slow"
        let start = ContinuousClock.now
        try context.save()
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }
}

@Suite struct RecordingStoreTests {
    @Test func recordsWhatWasSavedInOrder() throws {
        let store = RecordingStore()
        let container = try PersistentContainer.forTesting(
            model: try ManagedObjectModel(Fruit.self, Basket.self), store: store)
        let context = container.newContext()
        let apple = Fruit(context: context)
        try context.save()
        apple.price = 3
        try context.save()
        context.delete(apple)
        try context.save()
        #expect(store.changeSets.count == 3)
        #expect(store.insertedObjectIDs == [apple.objectID])
        #expect(store.updatedObjectIDs == [apple.objectID])
        #expect(store.deletedObjectIDs == [apple.objectID])
        store.clear()
        #expect(store.changeSets.isEmpty)
    }
}

@Suite struct ExpectationTests {
    @Test func unsavedChangesAreListed() throws {
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self)
        let context = container.newContext()
        let apple = Fruit(context: context)
        let error = #expect(throws: ExpectationFailure.self) { try context.expectNoUnsavedChanges() }
        #expect(error?.description.contains("inserted: \(apple.objectID)") == true)
    }

    @Test func storeDiffNamesMissingAndUnexpectedObjects() throws {
        let container = try PersistentContainer.forTesting(Fruit.self, Basket.self) { context in
            for (name, price) in [("apple", 120), ("pear", 80)] as [(String, Int64)] {
                let fruit = Fruit(context: context)
                fruit.name = name
                fruit.price = price
            }
        }
        try container.expectStore(holds: "Fruit", [["name": "pear"], ["name": "apple", "price": 120]])
        let error = #expect(throws: ExpectationFailure.self) {
            try container.expectStore(holds: "Fruit", [["name": "apple", "price": 99], ["name": "pear"]])
        }
        let text = error?.description ?? ""
        #expect(text.contains("- missing:    {name: \"apple\", price: 99}"), "\(text)")
        #expect(text.contains("+ unexpected: {"), "\(text)")
        #expect(text.contains("name: \"apple\""), "\(text)")
    }

    @Test func snapshotJSONIsStableForGoldenFiles() throws {
        func make() throws -> String {
            try PersistentContainer.forTesting(Fruit.self, Basket.self) { context in
                let fruit = Fruit(context: context)
                fruit.name = "apple"
                fruit.basket = Basket(context: context)
            }.storeSnapshotJSON()
        }
        let json = try make()
        #expect(json == (try make()))
        #expect(json.contains("\"name\": \"apple\""))
    }
}
