import Foundation
import ObjectGraph
import Testing

@Suite struct PersistentContainerTests {
    @Test func twoContainersNeverShareData() throws {
        let (_, first) = try makeContext()
        let (_, second) = try makeContext()
        makeFruit(first, "apple")
        try first.save()
        #expect(try second.count(for: Fruit.fetchRequest()) == 0)
    }

    @MainActor @Test func viewContextIsOneContextForTheMainActor() throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        #expect(container.viewContext === container.viewContext)
        makeFruit(container.viewContext, "apple")
        try container.viewContext.save()
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 1)
    }

    @MainActor @Test func backgroundTaskSavesAreVisibleToTheViewContext() async throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let id = try await container.performBackgroundTask { context in
            let fruit = makeFruit(context, "from background")
            try context.save()
            return fruit.objectID
        }
        let fruit = try container.viewContext.existingObject(with: id) as? Fruit
        #expect(fruit?.name == "from background")
    }

    @Test func backgroundTaskRethrows() async throws {
        let container = try PersistentContainer(model: TestModels.samples, storeDescription: .inMemory)
        await #expect(throws: PersistenceError.self) {
            try await container.performBackgroundTask { context in
                _ = Sample(context: context)
                try context.save()
            }
        }
    }

    @Test func containerExposesModelAndStore() throws {
        let store = InMemoryStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        #expect(container.store === store)
        #expect(container.model.entities.map(\.name) == ["Fruit", "Basket", "Owner", "Tag"])
    }
}
