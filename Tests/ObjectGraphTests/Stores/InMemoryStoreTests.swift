import Foundation
import ObjectGraph
import Testing

@Suite struct InMemoryStoreTests {
    @Test func secondLiveContainerGetsAClearError() throws {
        let store = InMemoryStore()
        let first = try PersistentContainer(model: TestModels.fruits, store: store)
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: TestModels.fruits, store: store)
        }
        #expect(error?.code == .storeInUse)
        #expect(error?.message.contains("open in another live container") == true)
        #expect(store.isOpen)
        _ = first
    }

    @Test func storeReopensOnceTheContainerAndItsContextsAreGone() throws {
        let store = InMemoryStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            makeFruit(context, "apple")
            try context.save()
        }
        #expect(!store.isOpen)
        #expect(store.objectCount == 1)
        let again = try PersistentContainer(model: TestModels.fruits, store: store)
        #expect(try again.newContext().count(for: Fruit.fetchRequest()) == 1)
    }

    @Test func relaunchWithAChangedModelIsAModelMismatch() throws {
        let store = InMemoryStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            makeFruit(context, "apple")
            try context.save()
        }
        let changed = try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", attributes: [AttributeDescription(name: "name", type: .integer64)])
        ])
        let error = #expect(throws: PersistenceError.self) { try PersistentContainer(model: changed, store: store) }
        #expect(error?.code == .modelMismatch)
        #expect(error?.detailedErrors.contains { $0.message.contains("'Fruit.name' is integer64") } == true)
        #expect(!store.isOpen)
        #expect(
            try PersistentContainer(model: TestModels.fruits, store: store).newContext().count(
                for: Fruit.fetchRequest()) == 1)
    }

    @Test func anEquivalentModelReadsTheSameData() throws {
        let store = InMemoryStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            makeFruit(context, "apple")
            _ = Tag(context: context)
            try context.save()
        }
        let reordered = try ManagedObjectModel(Tag.self, Owner.self, Basket.self, Fruit.self)
        let container = try PersistentContainer(model: reordered, store: store)
        #expect(try container.newContext().fetch(Fruit.fetchRequest()).map(\.name) == ["apple"])
    }
}

@Suite struct DiscardStoreTests {
    @Test func everyContainerStartsEmptyAndSavesSucceed() throws {
        let store = DiscardStore()
        let first = try PersistentContainer(model: TestModels.fruits, store: store)
        let second = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = first.newContext()
        makeFruit(context, "apple")
        try context.save()
        #expect(try first.newContext().count(for: Fruit.fetchRequest()) == 1)
        #expect(try second.newContext().count(for: Fruit.fetchRequest()) == 0)
    }
}

@Suite struct StoreDescriptionTests {
    @Test func devNullSelectsTheDiscardStore() throws {
        let description = try StoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        #expect(description.kind == .discard)
        #expect(description.makeStore() is DiscardStore)
        #expect(StoreDescription.inMemory.makeStore() is InMemoryStore)
    }

    @Test func fileURLsPickTheFileStoreByExtension() throws {
        let json = try StoreDescription(url: URL(fileURLWithPath: "/tmp/fruits.JSON"))
        #expect(json.kind == .jsonFile && json.makeStore() is JSONFileStore)
        let binary = try StoreDescription(url: URL(fileURLWithPath: "/tmp/fruits.store"))
        #expect(binary.kind == .binaryFile && binary.makeStore() is BinaryFileStore)
        #expect(StoreDescription.jsonFile(URL(fileURLWithPath: "/tmp/a")).kind == .jsonFile)
        #expect(StoreDescription.binaryFile(URL(fileURLWithPath: "/tmp/a.json")).kind == .binaryFile)
    }

    @Test func nonFileURLsAreNotSupported() {
        let url = URL(string: "https://example.com/fruits.store")!
        let error = #expect(throws: PersistenceError.self) { try StoreDescription(url: url) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.fileURL == url)
    }

    @Test func inMemoryDescriptionGivesEachContainerAFreshStore() throws {
        let first = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let context = first.newContext()
        makeFruit(context, "apple")
        try context.save()
        let second = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        #expect(try second.newContext().count(for: Fruit.fetchRequest()) == 0)
    }
}
