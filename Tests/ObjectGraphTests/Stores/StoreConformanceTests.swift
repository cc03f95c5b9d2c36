import Foundation
import ObjectGraph
import Testing

/// Every store kind, for the conformance suite. Each later store adds a case here and must pass.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory, discard, jsonFile, binaryFile, sqlite, postgres

    /// Every store: PostgreSQL's when a server is configured, and always in CI (where a missing
    /// server fails the tests; see `PostgresTestStore`).
    static var allCases: [StoreKind] {
        [.inMemory, .discard, .jsonFile, .binaryFile, .sqlite] + postgresIfConfigured
    }

    /// `[.postgres]` when the PostgreSQL tests run, else none.
    static var postgresIfConfigured: [StoreKind] { PostgresTestStore.isEnabled ? [.postgres] : [] }

    /// A new store; file stores get a file in a fresh temporary directory, the PostgreSQL store a
    /// schema of its own.
    func makeStore() -> any PersistentStore {
        switch self {
        case .inMemory: InMemoryStore()
        case .discard: DiscardStore()
        case .jsonFile: JSONFileStore(url: TemporaryDirectory.make().appendingPathComponent("store.json"))
        case .binaryFile: BinaryFileStore(url: TemporaryDirectory.make().appendingPathComponent("store.ogdb"))
        case .sqlite: SQLiteStore(url: TemporaryDirectory.make().appendingPathComponent("store.sqlite"))
        case .postgres: PostgresTestStore.makeStore()
        }
    }

    /// Whether a new container on the same store instance sees what an earlier one saved.
    var persists: Bool { self != .discard }

    var testDescription: String { rawValue }
}

@Suite(.dropsPostgresSchemas) struct StoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func savedObjectsAreFetchableInEveryContext(kind: StoreKind) throws {
        let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore())
        let context = container.newContext()
        let basket = Basket(context: context)
        for index in 0..<20 { makeFruit(context, "fruit \(index)", price: Int64(index)).basket = basket }
        try context.save()
        let reader = container.newContext()
        let fruits = try reader.fetch(Fruit.fetchRequest())
        #expect(fruits.map(\.price) == (0..<20).map(Int64.init))
        #expect(fruits.allSatisfy { $0.basket?.objectID == basket.objectID })
    }

    @Test(arguments: StoreKind.allCases)
    func updatesAndDeletesReachOtherContexts(kind: StoreKind) throws {
        let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore())
        let context = container.newContext()
        let apple = makeFruit(context, "apple", price: 1)
        let pear = makeFruit(context, "pear")
        try context.save()
        apple.price = 2
        context.delete(pear)
        try context.save()
        let reader = container.newContext()
        #expect(try reader.fetch(Fruit.fetchRequest()).map { "\($0.name) \($0.price)" } == ["apple 2"])
    }

    @Test(arguments: StoreKind.allCases)
    func relaunchSeesSavedDataOnlyIfTheStorePersists(kind: StoreKind) throws {
        let store = kind.makeStore()
        var savedID: ObjectID?
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            savedID = makeFruit(context, "apple").objectID
            try context.save()
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let names = try context.fetch(Fruit.fetchRequest()).map(\.name)
        #expect(names == (kind.persists ? ["apple"] : []))
        let next = makeFruit(context, "pear")
        if kind.persists { #expect(next.objectID.key > savedID!.key) }
    }

    @Test(arguments: StoreKind.allCases)
    func keysAreNeverReusedAfterDeletes(kind: StoreKind) throws {
        let store = kind.makeStore()
        var highest: Int64 = 0
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            for index in 0..<600 { highest = makeFruit(context, "f\(index)").objectID.key }
            try context.save()
            try context.deleteAll(Fruit.self)
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let key = makeFruit(container.newContext(), "new").objectID.key
        if kind.persists { #expect(key > highest) }
    }

    @Test(arguments: StoreKind.allCases)
    func failedSaveLeavesStoreAndContextAsTheyWere(kind: StoreKind) throws {
        let store = FailingStore(wrapping: kind.makeStore())
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let apple = makeFruit(context, "apple", price: 1)
        try context.save()
        apple.price = 2
        let pear = makeFruit(context, "pear")
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.save() }
        #expect(apple.price == 2 && apple.isUpdated && pear.isInserted)
        #expect(context.insertedObjects == [pear] && context.updatedObjects == [apple])
        let reader = container.newContext()
        #expect(try reader.fetch(Fruit.fetchRequest()).map { "\($0.name) \($0.price)" } == ["apple 1"])
        try context.save()
        let after = container.newContext()
        #expect(try after.fetch(Fruit.fetchRequest()).map { "\($0.name) \($0.price)" } == ["apple 2", "pear 100"])
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentSavesLoseNothing(kind: StoreKind) async throws {
        let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        for index in 0..<50 {
                            makeFruit(context, "task \(task) fruit \(index)")
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = try container.newContext().fetch(Fruit.fetchRequest()).map(\.name)
        #expect(names.count == 200)
        #expect(Set(names).count == 200)
    }

    @Test(arguments: StoreKind.allCases)
    func unicodeAndHugeValuesSurvive(kind: StoreKind) throws {
        let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore())
        let context = container.newContext()
        let name = "🍎りんご\u{0}Ä\u{301}" + String(repeating: "x", count: 1 << 20)
        makeFruit(context, name, price: .max)
        try context.save()
        let fetched = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(fetched.first?.name == name && fetched.first?.price == .max)
    }
}
