import Foundation
import ObjectGraph
import Testing

@Suite struct StoreDescriptionCustomTests {
    @Test func customDescriptionMakesItsStoreWithTheDescriptionsOptions() throws {
        let made = Locked<[Bool]>([])
        var description = StoreDescription.custom("recording store", identity: "recording") { description in
            made.withLock { $0.append(description.isReadOnly) }
            return InMemoryStore(isReadOnly: description.isReadOnly)
        }
        #expect(description.kind == .custom)
        #expect(description.description == "recording store")
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: description)
        #expect(!container.store.isReadOnly)
        description.isReadOnly = true
        #expect(description.makeStore().isReadOnly)
        #expect(description.description == "recording store, read-only")
        #expect(made.withLock { $0 } == [false, true])
    }

    @Test func customDescriptionsAreEqualByIdentity() {
        let make: @Sendable (StoreDescription) -> any PersistentStore = { _ in DiscardStore() }
        let a = StoreDescription.custom("A", identity: "same", makeStore: make)
        let b = StoreDescription.custom("B", identity: "same") { _ in InMemoryStore() }
        let c = StoreDescription.custom("A", identity: "other", makeStore: make)
        #expect(a == b)
        #expect(Set([a, b, c]).count == 2)
        #expect(a != c)
        #expect(a != .inMemory)
        #expect(StoreDescription.custom("A", makeStore: make) == .custom("A", makeStore: make))
    }

    @Test func customKindWithoutAFactoryIsATypedError() {
        var description = StoreDescription.inMemory
        description.kind = .custom
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: TestModels.fruits, storeDescription: description)
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("StoreDescription.custom") == true)
    }
}
