import Foundation
import ObjectGraph
import Testing

/// Owns a context through an actor, as `perform` is meant for.
actor FruitCounter {
    let context: ManagedContext

    init(container: PersistentContainer) {
        context = container.newContext()
    }

    func add(_ name: String) async throws {
        try await context.perform {
            makeFruit(context, name)
            try context.save()
        }
    }

    func count() async throws -> Int {
        try await context.perform { try context.count(for: Fruit.fetchRequest()) }
    }
}

@Suite struct ConcurrencyTests {
    /// Four background tasks and the main context save 1,000 changes each, concurrently, into
    /// one container; a fresh container on the same store reads exactly the union afterwards.
    @Test(arguments: [StoreKind.inMemory, .binaryFile])
    func concurrentSavesFromFiveContextsLoseNothing(kind: StoreKind) async throws {
        let store = kind.makeStore()
        let saves = 1_000
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        try await container.performBackgroundTask { context in
                            for index in 0..<saves {
                                makeFruit(context, "background \(task)-\(index)", price: Int64(index))
                                try context.save()
                            }
                        }
                    }
                }
                group.addTask { try await Self.saveOnTheMainActor(container, count: saves) }
                try await group.waitForAll()
            }
        }
        let fresh = try PersistentContainer(model: TestModels.fruits, store: store)
        let names = try fresh.newContext().fetch(Fruit.fetchRequest()).map(\.name)
        #expect(names.count == 5 * saves)
        var expected = Set((0..<saves).map { "main-\($0)" })
        for task in 0..<4 { expected.formUnion((0..<saves).map { "background \(task)-\($0)" }) }
        #expect(Set(names) == expected)
    }

    @MainActor
    static func saveOnTheMainActor(_ container: PersistentContainer, count: Int) async throws {
        let context = container.viewContext
        for index in 0..<count {
            makeFruit(context, "main-\(index)", price: Int64(index))
            try context.save()
            if index % 100 == 0 { await Task.yield() }
        }
    }

    @Test func contextsOwnedByActorsWorkThroughPerform() async throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let counter = FruitCounter(container: container)
        try await counter.add("apple")
        try await counter.add("pear")
        #expect(try await counter.count() == 2)
    }
}
