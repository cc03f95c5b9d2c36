import Foundation
import Testing

@testable import ObjectGraph

/// Many tasks on one container at once, each through its own context: saves, fetches that build
/// and read the shared caches (prefix columns, unique indexes, key path slots), counts, batch
/// updates and deletes, and contexts merging the notifications. Meant for ThreadSanitizer
/// (`.ci/run` runs it under `--sanitize=thread`): it asserts only what every interleaving keeps.
@Suite struct ConcurrencyStressTests {
    static let tasks = 4
    static let rounds = 150

    @Test(arguments: [StoreKind.inMemory, .binaryFile])
    func savesFetchesBatchRequestsAndMergesRunTogether(kind: StoreKind) async throws {
        let store = kind.makeStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        try Self.work(task: task, context: context)
                    }
                }
            }
            try await group.waitForAll()
        }
        // Every task's last saved fruit survives the others' batch deletes (they delete only
        // their own), so a fresh context sees one per task at least.
        let names = Set(try container.newContext().fetch(Fruit.fetchRequest()).map(\.name))
        for task in 0..<Self.tasks { #expect(names.contains("t\(task)-\(Self.rounds - 1)")) }
    }

    /// One task's rounds: insert and save, fetch by prefix (shared prefix columns), count,
    /// fetch by key path through a relationship, batch update its own fruits, batch delete its
    /// old ones, merge a notification, and refresh.
    static func work(task: Int, context: ManagedContext) throws {
        let basket = Basket(context: context)
        basket.label = "basket \(task)"
        try context.save()
        for round in 0..<rounds {
            let fruit = makeFruit(context, "t\(task)-\(round)", price: Int64(round))
            fruit.basket = basket
            try context.save()
            let own = try FetchPredicate(format: "name BEGINSWITH %@", "t\(task)-")
            let fetched = try context.fetch(FetchRequest<Fruit>(predicate: own))
            #expect(fetched.contains { $0.name == fruit.name })
            _ = try context.count(for: FetchRequest<Fruit>(predicate: FetchPredicate(format: "basket.label != nil")))
            if round % 10 == 9 {
                let updated = try context.execute(
                    BatchUpdateRequest(Fruit.self, predicate: own, propertiesToUpdate: ["price": .int(Int64(round))]))
                context.mergeChanges(from: updated.notification)
                let old = try FetchPredicate(format: "name BEGINSWITH %@ AND name != %@", "t\(task)-", fruit.name)
                let deleted = try context.execute(BatchDeleteRequest(Fruit.self, predicate: old))
                context.mergeChanges(from: deleted.notification)
            }
            if round % 25 == 0 { context.refreshAllObjects() }
        }
    }
}
