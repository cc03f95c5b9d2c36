import Foundation
import ObjectGraphTesting
import Synchronization
import Testing

@testable import ObjectGraph

/// A store that keeps only the snapshot gets change sets without records (no copy of every
/// changed object for nobody); any other store still gets every record.
@Suite struct SnapshotPersistingStoreTests {
    /// Keeps each change set it is handed, like the in-memory store keeps the snapshot.
    private final class SnapshotKeepingStore: SnapshotPersistingStore {
        let changeSets = Mutex<[StoreChangeSet]>([])
        func load(model: ManagedObjectModel) throws -> StoreSnapshot { StoreSnapshot(model: model) }
        func save(_ changes: StoreChangeSet) throws { changeSets.withLock { $0.append(changes) } }
        func close() {}
    }

    /// Inserts two fruits, saves, changes one and deletes the other, saves again.
    private static func insertChangeAndDelete(_ context: ManagedContext) throws -> (kept: Fruit, deleted: ObjectID) {
        let apple = makeFruit(context, "apple", price: 1)
        let pear = makeFruit(context, "pear", price: 2)
        try context.save()
        apple.price = 3
        let pearID = pear.objectID
        context.delete(pear)
        try context.save()
        return (apple, pearID)
    }

    @Test func aSnapshotStoreGetsTheSnapshotWithoutRecords() throws {
        let store = SnapshotKeepingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let (apple, pearID) = try Self.insertChangeAndDelete(context)

        let changeSets = store.changeSets.withLock { $0 }
        #expect(changeSets.count == 2)
        #expect(changeSets.allSatisfy { $0.inserted.isEmpty && $0.updated.isEmpty })
        #expect(changeSets[1].deleted == [pearID])
        let last = try #require(changeSets.last)
        #expect(last.snapshot.record(for: apple.objectID)?.version == 2)
        #expect(last.snapshot.record(for: pearID) == nil)
        // The saved state is the snapshot's: another context reads it.
        let fruits = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(fruits.map(\.price) == [3])
    }

    @Test func anyOtherStoreGetsEveryRecord() throws {
        let store = RecordingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let (apple, pearID) = try Self.insertChangeAndDelete(container.newContext())

        #expect(store.changeSets.count == 2)
        #expect(store.insertedObjectIDs == [apple.objectID, pearID])
        #expect(store.updatedObjectIDs == [apple.objectID])
        let second = store.changeSets[1]
        #expect(second.updated.first?.values == second.snapshot.record(for: apple.objectID)?.values)
        #expect(store.deletedObjectIDs == [pearID])
    }
}
