import Foundation
import ObjectGraph
import Testing

@Suite struct FetchTests {
    @Test func fetchIncludesUnsavedInsertsAndExcludesPendingDeletes() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        makeFruit(context, "pear")
        try context.save()
        makeFruit(context, "fig")
        context.delete(apple)
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["pear", "fig"])
        #expect(try context.count(for: Fruit.fetchRequest()) == 2)

        var committedOnly = Fruit.fetchRequest()
        committedOnly.includesPendingChanges = false
        #expect(try context.fetch(committedOnly).map(\.name) == ["apple", "pear"])
        #expect(try context.count(for: committedOnly) == 2)
    }

    @Test func resultsComeInInsertionOrderAcrossContexts() throws {
        let (container, context) = try makeContext()
        let early = makeFruit(context, "early (unsaved)")
        let other = container.newContext()
        makeFruit(other, "later (saved elsewhere)")
        try other.save()
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["early (unsaved)", "later (saved elsewhere)"])
        _ = early
    }

    @Test func limitAndOffsetPage() throws {
        let (_, context) = try makeContext()
        for index in 0..<5 { makeFruit(context, "saved \(index)") }
        try context.save()
        for index in 0..<3 { makeFruit(context, "new \(index)") }
        var request = Fruit.fetchRequest()
        request.fetchOffset = 4
        request.fetchLimit = 3
        #expect(try context.fetch(request).map(\.name) == ["saved 4", "new 0", "new 1"])
        #expect(try context.count(for: request) == 3)
        request.fetchOffset = 7
        #expect(try context.fetch(request).map(\.name) == ["new 2"])
        #expect(try context.count(for: request) == 1)
        request.fetchOffset = 100
        #expect(try context.fetch(request).isEmpty)
        #expect(try context.count(for: request) == 0)
    }

    @Test func emptyStoreFetchesNothing() throws {
        let (_, context) = try makeContext()
        #expect(try context.fetch(Fruit.fetchRequest()).isEmpty)
        #expect(try context.count(for: Basket.fetchRequest()) == 0)
    }

    @Test func untypedRequestsByEntityName() throws {
        let (_, context) = try makeContext()
        makeFruit(context, "apple")
        let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Fruit"))
        #expect(objects.first is Fruit)
    }

    @Test func invalidRequestsAreTypedErrors() throws {
        let (_, context) = try makeContext()
        let unknown = #expect(throws: PersistenceError.self) {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Vegetable"))
        }
        #expect(unknown?.code == .invalidFetchRequest)
        let wrongClass = #expect(throws: PersistenceError.self) {
            try context.fetch(FetchRequest<Fruit>(entityName: "Basket"))
        }
        #expect(wrongClass?.code == .invalidFetchRequest)
        let (_, samples) = try makeContext(model: TestModels.samples)
        #expect(throws: PersistenceError.self) { try samples.fetch(Fruit.fetchRequest()) }
    }

    // MARK: - deleteAll

    @Test func deleteAllRemovesEveryObjectOfTheEntity() throws {
        let (_, context) = try makeContext()
        for index in 0..<10 { makeFruit(context, "fruit \(index)") }
        try context.save()
        makeFruit(context, "unsaved")
        let tag = Tag(context: context)
        #expect(try context.deleteAll(Fruit.self) == 11)
        #expect(try context.count(for: Fruit.fetchRequest()) == 0)
        #expect(!context.hasChanges)
        #expect(!tag.isInserted)
        #expect(try context.count(for: Tag.fetchRequest()) == 1)
    }

    @Test func deleteAllOfEveryEntityEmptiesTheStore() throws {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        makeFruit(context, "apple").basket = basket
        Owner(context: context).basket = basket
        _ = Tag(context: context)
        try context.save()
        #expect(try context.deleteAll() == 4)
        let fresh = container.newContext()
        #expect(try fresh.count(for: Fruit.fetchRequest()) + fresh.count(for: Basket.fetchRequest()) == 0)
        #expect(try fresh.count(for: Owner.fetchRequest()) + fresh.count(for: Tag.fetchRequest()) == 0)
    }

    @Test func failedDeleteAllRestoresTheContext() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        apple.basket = basket
        try context.save()
        apple.price = 7
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.deleteAll(Basket.self) }
        #expect(!basket.isDeleted && !apple.isDeleted)
        #expect(apple.basket === basket && apple.price == 7)
        #expect(context.updatedObjects == [apple])
        #expect(context.deletedObjects.isEmpty)
        #expect(try context.deleteAll(Basket.self) == 1)
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 0)
    }

    @Test func deleteAllByEntityName() throws {
        let (_, context) = try makeContext()
        _ = Tag(context: context)
        try context.save()
        #expect(try context.deleteAll(entityName: "Tag") == 1)
        #expect(throws: PersistenceError.self) { try context.deleteAll(entityName: "Nope") }
    }
}
