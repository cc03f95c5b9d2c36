import Foundation
import ObjectGraph
import Testing

// The habits of SCENARIOS.md, written the way our users write them.

// MARK: - 1. A generic storage over a context

struct Storage<Object: ManagedObject> {
    let context: ManagedContext

    func read(fetchLimit: Int = 0) throws -> [Object] {
        var request = Object.fetchRequest()
        request.fetchLimit = fetchLimit
        return try context.fetch(request)
    }

    func create(_ object: Object) throws {
        context.insert(object)
        try context.saveIfNeeded()
    }

    func update() throws { try context.saveIfNeeded() }

    func delete(_ object: Object) throws {
        context.delete(object)
        try context.saveIfNeeded()
    }
}

@Suite struct GenericStorageScenarioTests {
    let context: ManagedContext

    init() throws {
        let container = try PersistentContainer(
            model: TestModels.fruits, storeDescription: try StoreDescription(url: URL(fileURLWithPath: "/dev/null")))
        context = container.newContext()
    }

    @Test func createUpdateDeleteThroughStorage() throws {
        let storage = Storage<Fruit>(context: context)
        let apple = Fruit(context: context)
        apple.name = "apple"
        try storage.create(apple)
        try storage.create(apple)
        #expect(try storage.read().count == 1)
        apple.price = 10
        try storage.update()
        #expect(try storage.read().first?.price == 10)
        try storage.delete(apple)
        #expect(try storage.read().isEmpty)
        try context.deleteAll()
        context.reset()
    }
}

// MARK: - 2. A repository protocol with async methods over background contexts

struct Number: Equatable, Sendable {
    var value: Int64
}

final class NumberEntity: ManagedObject {
    @Attribute var value: Int64 = 0

    convenience init(context: ManagedContext, number: Number) {
        self.init(context: context)
        value = number.value
    }

    var number: Number { Number(value: value) }
}

protocol NumberStorage: Sendable {
    func get() async throws -> [Number]
    func save(_ number: Number) async -> Bool
}

struct ObjectGraphNumberStorage: NumberStorage {
    let container: PersistentContainer

    func get() async throws -> [Number] {
        try await container.performBackgroundTask { context in
            try context.fetch(NumberEntity.fetchRequest()).map(\.number)
        }
    }

    func save(_ number: Number) async -> Bool {
        do {
            return try await container.performBackgroundTask { context in
                _ = NumberEntity(context: context, number: number)
                try context.save()
                return true
            }
        } catch {
            return false
        }
    }
}

@Suite struct NumberStorageScenarioTests {
    let storage: ObjectGraphNumberStorage

    init() throws {
        let model = try ManagedObjectModel(NumberEntity.self)
        storage = ObjectGraphNumberStorage(
            container: try PersistentContainer(model: model, storeDescription: .inMemory))
    }

    @Test func savedNumbersComeBackInOrder() async throws {
        for value in [3, 1, 2] as [Int64] { #expect(await storage.save(Number(value: value))) }
        #expect(try await storage.get() == [Number(value: 3), Number(value: 1), Number(value: 2)])
    }

    @Test func failedSaveReportsFalseAndKeepsNothing() async throws {
        let store = FailingStore()
        let model = try ManagedObjectModel(NumberEntity.self)
        let storage = ObjectGraphNumberStorage(container: try PersistentContainer(model: model, store: store))
        store.failNext()
        #expect(await storage.save(Number(value: 1)) == false)
        #expect(try await storage.get().isEmpty)
        #expect(await storage.save(Number(value: 2)))
        #expect(try await storage.get() == [Number(value: 2)])
    }
}

// MARK: - 3. A view model with its context injected

final class FruitListViewModel {
    let context: ManagedContext

    init(context: ManagedContext) { self.context = context }

    func createAnObject() {
        let fruit = Fruit(context: context)
        fruit.name = "fruit \(context.insertedObjects.count)"
        try? context.save()
    }

    func all() throws -> [Fruit] { try context.fetch(Fruit.fetchRequest()) }
}

@Suite struct ViewModelScenarioTests {
    @Test func createsThreeObjects() throws {
        let (_, context) = try makeContext()
        let viewModel = FruitListViewModel(context: context)
        for _ in 0..<3 { viewModel.createAnObject() }
        #expect(try viewModel.all().count == 3)
    }

    @Test func eachTestStartsEmpty() throws {
        let (_, context) = try makeContext()
        #expect(try FruitListViewModel(context: context).all().isEmpty)
    }
}
