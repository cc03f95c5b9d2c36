import Foundation
import Testing

@testable import ObjectGraph

/// A container on a SQLite store reads rows when it needs them: the store's size does not set
/// the container's memory.
@Suite struct SQLiteQueryingTests {
    /// A store file of `baskets` baskets of `fruitsPerBasket` fruits each.
    private func makeStore(baskets: Int, fruitsPerBasket: Int) throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
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
        return url
    }

    private func person(in context: ManagedContext, model: ManagedObjectModel) throws -> ManagedObject {
        ManagedObject(entity: try #require(model.entity(named: "Person")), insertInto: context)
    }

    private func cachedRows(_ container: PersistentContainer) -> Int {
        container.coordinator.snapshot().count
    }

    @Test func openingReadsNoRowsAndAFetchReadsAboutTheRowsItReturns() throws {
        let url = try makeStore(baskets: 10, fruitsPerBasket: 100)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        #expect(cachedRows(container) == 0)
        let context = container.newContext()
        var request = Fruit.fetchRequest()
        request.fetchLimit = 10
        request.fetchOffset = 500
        let fruits = try context.fetch(request)
        #expect(fruits.map(\.name) == (500..<510).map { "fruit \($0)" })
        #expect(cachedRows(container) == 10)
    }

    @Test func countsAreTheStoresWithTheContextsPendingChanges() throws {
        let url = try makeStore(baskets: 3, fruitsPerBasket: 10)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        #expect(try context.count(for: Fruit.fetchRequest()) == 30)
        #expect(cachedRows(container) == 0)
        let extra = Fruit(context: context)
        extra.name = "extra"
        var first = Fruit.fetchRequest()
        first.fetchLimit = 2
        let deleted = try context.fetch(first)
        for fruit in deleted { context.delete(fruit) }
        #expect(try context.count(for: Fruit.fetchRequest()) == 29)
        var committedOnly = Fruit.fetchRequest()
        committedOnly.includesPendingChanges = false
        #expect(try context.count(for: committedOnly) == 30)
    }

    @Test func relationshipsAreReadWhenFirstUsed() throws {
        let url = try makeStore(baskets: 5, fruitsPerBasket: 50)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        var request = Fruit.fetchRequest()
        request.fetchLimit = 1
        request.fetchOffset = 60
        let fruit = try #require(try context.fetch(request).first)
        #expect(cachedRows(container) == 1)
        let basket = try #require(fruit.basket)
        #expect(basket.label == "basket 1")
        #expect(cachedRows(container) == 2)
        #expect(basket.fruits.count == 50)
        #expect(cachedRows(container) == 51)
    }

    @Test func theCacheStaysBoundedWhileEveryObjectIsVisited() throws {
        let url = try makeStore(baskets: 20, fruitsPerBasket: 250)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        container.coordinator.state.withLock { $0.rowCacheLimit = 1_000 }
        let context = container.newContext()
        var visited = 0
        var largest = 0
        var request = Fruit.fetchRequest()
        request.fetchLimit = 400
        while true {
            request.fetchOffset = visited
            let page = try context.fetch(request)
            guard !page.isEmpty else { break }
            visited += page.count
            largest = max(largest, cachedRows(container), context.registeredObjects.count)
        }
        #expect(visited == 5_000)
        #expect(largest <= 1_000)
        #expect(context.registeredObjects.isEmpty)
    }

    @Test func aCascadeReachesRowsTheContextNeverRead() throws {
        let url = try makeStore(baskets: 4, fruitsPerBasket: 25)
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
            let context = container.newContext()
            var request = Basket.fetchRequest()
            request.fetchLimit = 1
            let basket = try #require(try context.fetch(request).first)
            context.delete(basket)
            try context.save()
            #expect(try context.count(for: Fruit.fetchRequest()) == 75)
        }
        let reopened = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = reopened.newContext()
        #expect(try context.count(for: Basket.fetchRequest()) == 3)
        #expect(try context.fetch(Fruit.fetchRequest()).allSatisfy { $0.basket != nil })
    }

    @Test func anUpdateOfARowOutsideTheCacheIsSavedWithItsVersion() throws {
        let url = try makeStore(baskets: 1, fruitsPerBasket: 10)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        let fruits = try context.fetch(Fruit.fetchRequest())
        container.coordinator.state.withLock { $0.snapshot = StoreCoordinator.withoutRows($0.snapshot) }
        fruits[3].price = 99
        try context.save()
        let other = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price == 99")
        #expect(try other.fetch(request).map(\.name) == ["fruit 3"])
    }

    @Test func aDuplicateOfAStoredObjectTheCacheLacksIsFound() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("people.sqlite")
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "mail", type: .string)],
                uniquenessConstraints: [["mail"]])
        ])
        do {
            let context = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
            for index in 0..<20 {
                try person(in: context, model: model).setValue("p\(index)@example.com", forKey: "mail")
            }
            try context.save()
        }
        let container = try PersistentContainer(model: model, store: SQLiteStore(url: url))
        let context = container.newContext()
        try person(in: context, model: model).setValue("p7@example.com", forKey: "mail")
        #expect(cachedRows(container) == 0)
        #expect(throws: PersistenceError.self) { try context.save() }
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 20)
    }

    @Test func unchangedObjectsLeaveTheContextWhenNobodyHoldsThem() throws {
        let url = try makeStore(baskets: 1, fruitsPerBasket: 20)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        var changed: Fruit?
        do {
            let fruits = try context.fetch(Fruit.fetchRequest())
            #expect(context.registeredObjects.count == 20)
            fruits[0].price = 1_000
            changed = nil
        }
        #expect(context.registeredObjects.count == 1)
        #expect(context.hasChanges)
        changed = context.updatedObjects.first as? Fruit
        #expect(changed?.price == 1_000)
        context.retainsRegisteredObjects = true
        _ = try context.fetch(Fruit.fetchRequest())
        #expect(context.registeredObjects.count == 20)
        context.retainsRegisteredObjects = false
        #expect(context.registeredObjects.count == 1)
    }

    @Test func batchesVisitEveryObjectInOrderInBoundedMemory() throws {
        let url = try makeStore(baskets: 10, fruitsPerBasket: 300)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        container.coordinator.state.withLock { $0.rowCacheLimit = 1_000 }
        let context = container.newContext()
        var request = Fruit.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "price", ascending: false)]
        request.fetchBatchSize = 250
        let expected = try context.fetchObjectIDs(request)
        var visited: [ObjectID] = []
        var largest = 0
        for page in try context.fetchBatches(request) {
            #expect(page.count == 250)
            visited += page.map(\.objectID)
            largest = max(largest, cachedRows(container), context.registeredObjects.count)
        }
        #expect(visited == expected && visited.count == 3_000)
        #expect(largest <= 1_000)
    }

    @Test func batchesSelectWhatAFetchSelectsOnEveryStore() throws {
        for store in [InMemoryStore(), SQLiteStore(url: TemporaryDirectory.make().appendingPathComponent("b.sqlite"))]
            as [any PersistentStore]
        {
            let context = try PersistentContainer(model: TestModels.fruits, store: store).newContext()
            for index in 0..<25 {
                let fruit = Fruit(context: context)
                fruit.name = "fruit \(index)"
                fruit.price = Int64(index % 7)
            }
            try context.save()
            let extra = Fruit(context: context)
            extra.name = "unsaved"
            var request = Fruit.fetchRequest()
            request.predicate = try FetchPredicate(format: "price >= 3")
            request.sortDescriptors = [SortDescriptor(key: "price"), SortDescriptor(key: "name", ascending: false)]
            request.fetchBatchSize = 4
            let pages = Array(try context.fetchBatches(request))
            #expect(pages.flatMap { $0 } == (try context.fetch(request)))
            #expect(pages.dropLast().allSatisfy { $0.count == 4 })
        }
    }

    @Test func deletingAnObjectClearsReferencesWithoutAnInverseFromRowsNeverRead() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("notes.sqlite")
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Topic", attributes: [AttributeDescription(name: "title", type: .string)]),
            EntityDescription(
                name: "Note", attributes: [AttributeDescription(name: "text", type: .string)],
                relationships: [
                    RelationshipDescription(name: "about", destination: "Topic", inverse: nil),
                    RelationshipDescription(name: "seeAlso", destination: "Topic", inverse: nil, isToMany: true),
                ]),
        ])
        do {
            let context = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
            let topics = try (0..<2).map { index in
                let topic = ManagedObject(entity: try #require(model.entity(named: "Topic")), insertInto: context)
                try topic.setValue("topic \(index)", forKey: "title")
                return topic
            }
            for index in 0..<3 {
                let note = ManagedObject(entity: try #require(model.entity(named: "Note")), insertInto: context)
                try note.setValue("note \(index)", forKey: "text")
                try note.setValue(topics[0], forKey: "about")
                try note.setValue(Set(topics), forKey: "seeAlso")
            }
            try context.save()
        }
        do {
            let container = try PersistentContainer(model: model, store: SQLiteStore(url: url))
            let context = container.newContext()
            var request = FetchRequest<ManagedObject>(entityName: "Topic")
            request.predicate = try FetchPredicate(format: "title == 'topic 0'")
            let topic = try #require(try context.fetch(request).first)
            context.delete(topic)
            try context.save()
        }
        let context = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
        let notes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(notes.count == 3)
        for note in notes {
            #expect(try note.value(forKey: "about") == nil)
            let seeAlso = try #require(try note.value(forKey: "seeAlso") as? Set<ManagedObject>)
            #expect(try seeAlso.map { try $0.value(forKey: "title") as? String } == ["topic 1"])
        }
        #expect(StoreFileInspector.verify(url) == nil)
    }

    @Test func aBatchUpdateReadsOnlyTheRowsItChanges() throws {
        let url = try makeStore(baskets: 10, fruitsPerBasket: 100)
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        let context = container.newContext()
        var request = BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": .int(1_000)])
        request.predicate = try FetchPredicate(format: "price < 5 AND name ENDSWITH '1'")
        let result = try context.execute(request)
        #expect(result.updatedObjectIDs.count == 10)
        #expect(cachedRows(container) <= 20)  // the 10 changed fruits and their baskets
        var check = Fruit.fetchRequest()
        check.predicate = try FetchPredicate(format: "price == 1000")
        let reader = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        #expect(try reader.fetch(check).map(\.name).sorted() == (0..<10).map { "fruit \($0 * 100 + 1)" }.sorted())
    }

    @Test func deletingEveryObjectOfAnEntityWithoutRelationshipsReadsNoRow() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("people.sqlite")
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Person", attributes: [AttributeDescription(name: "mail", type: .string)])
        ])
        do {
            let context = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
            for index in 0..<30 { try person(in: context, model: model).setValue("p\(index)", forKey: "mail") }
            try context.save()
            var first = FetchRequest<ManagedObject>(entityName: "Person")
            first.fetchLimit = 3
            for object in try context.fetch(first) { context.delete(object) }
            try context.save()
        }
        let store = SQLiteStore(url: url)
        let container = try PersistentContainer(model: model, store: store)
        let context = container.newContext()
        let kept = try context.fetch(
            FetchRequest<ManagedObject>(entityName: "Person", predicate: try FetchPredicate(format: "mail == 'p9'")))
        #expect(try context.deleteAll(entityName: "Person") == 27)
        #expect(cachedRows(container) == 0)
        #expect(kept.count == 1 && kept.allSatisfy { $0.isDeleted })
        let deleted = try #require(try store.fetchHistory(after: nil).last).changes
        #expect(deleted.count == 27 && deleted.allSatisfy { $0.changeType == .delete })
        #expect(Set(deleted.map(\.objectID.key)) == Set(4...30))
        let reopened = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
        #expect(try reopened.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 0)
    }
}
