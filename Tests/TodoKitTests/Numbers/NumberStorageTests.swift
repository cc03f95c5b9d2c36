import ObjectGraph
import ObjectGraphTesting
import Testing

// The storage tested against a throwaway in-memory store: no subclass, no shared container, just
// a different container injected.

@Suite struct NumberStorageTests {
    let container: PersistentContainer
    let storage: ObjectGraphNumberStorage

    init() throws {
        container = try PersistentContainer.forTesting(NumberEntity.self)
        storage = ObjectGraphNumberStorage(container: container)
    }

    @Test func startsEmpty() async throws {
        #expect(try await storage.get().isEmpty)
    }

    @Test func savedNumbersComeBackInCountAndOrder() async throws {
        let numbers = [3, 1, 2, -7, 0, Int64.max].map(Number.init(value:))
        for number in numbers { #expect(await storage.save(number)) }
        let stored = try await storage.get()
        #expect(stored.count == 6)
        #expect(stored == numbers)
        try container.expectStore(holds: "NumberEntity", numbers.map { ["value": $0.value] })
    }

    @Test func aSecondStorageOnTheSameContainerSeesTheNumbers() async throws {
        #expect(await storage.save(Number(value: 42)))
        #expect(try await ObjectGraphNumberStorage(container: container).get() == [Number(value: 42)])
    }

    @Test func aFailedSaveReportsFalseAndKeepsNothing() async throws {
        let store = FaultInjectingStore()
        let storage = ObjectGraphNumberStorage(
            container: try .forTesting(model: try ManagedObjectModel(NumberEntity.self), store: store))
        #expect(await storage.save(Number(value: 1)))
        store.failNextSave()
        #expect(await storage.save(Number(value: 2)) == false)
        #expect(await storage.save(Number(value: 3)))
        #expect(try await storage.get() == [Number(value: 1), Number(value: 3)])
    }

    @Test func concurrentSavesAllArrive() async throws {
        let storage = self.storage
        await withTaskGroup(of: Bool.self) { group in
            for value in 1...20 { group.addTask { await storage.save(Number(value: Int64(value))) } }
            for await saved in group { #expect(saved) }
        }
        let stored = try await storage.get()
        #expect(stored.count == 20)
        #expect(stored.map(\.value).sorted() == Array(1...20))
    }
}
