import Foundation
import ObjectGraph
import Testing

@Suite struct ContextPerformTests {
    @Test func performReturnsTheBodysValue() async throws {
        let (_, context) = try makeContext()
        let name = await context.perform {
            makeFruit(context, "Apple").name
        }
        #expect(name == "Apple")
        let count = try await context.perform { try context.count(for: Fruit.fetchRequest()) }
        #expect(count == 1)
    }

    @Test func performRethrowsTheBodysError() async throws {
        let (_, context) = try makeContext()
        do {
            let count = try await context.perform {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Nothing")).count
            }
            Issue.record("perform returned \(count) instead of throwing")
        } catch let error as PersistenceError {
            #expect(error.code == .invalidFetchRequest)
        }
    }

    @MainActor
    @Test func performWorksOnTheViewContextAndItsChildren() async throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let view = container.viewContext
        let id = try await view.perform {
            let apple = makeFruit(view, "Apple")
            try view.save()
            return apple.objectID
        }
        let child = view.newChildContext()
        let price = try await child.perform {
            let apple = try #require(try child.existingObject(with: id) as? Fruit)
            apple.price = 5
            try child.save()
            return apple.price
        }
        #expect(price == 5)
        #expect((try view.existingObject(with: id) as? Fruit)?.price == 5)
    }

    @Test func performRunsInTheOwningActor() async throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let counter = FruitCounter(container: container)
        try await counter.add("Apple")
        try await counter.add("Pear")
        #expect(try await counter.count() == 2)
    }
}
