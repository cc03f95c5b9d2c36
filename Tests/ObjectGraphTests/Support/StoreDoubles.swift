import Foundation
import ObjectGraph

/// A store that fails the saves a test asks it to fail, and otherwise keeps data in memory.
final class FailingStore: PersistentStore {
    struct DiskFull: Error, Equatable {}

    private let inner: any PersistentStore
    private let failNextSaves = Locked(0)
    private let saves = Locked(0)

    init(wrapping inner: any PersistentStore = InMemoryStore()) { self.inner = inner }

    func failNext(_ count: Int = 1) { failNextSaves.withLock { $0 = count } }
    var saveCount: Int { saves.withLock { $0 } }

    func load(model: ManagedObjectModel) throws -> StoreSnapshot { try inner.load(model: model) }

    func save(_ changes: StoreChangeSet) throws {
        let fail = failNextSaves.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        if fail { throw DiskFull() }
        try inner.save(changes)
        saves.withLock { $0 += 1 }
    }

    func close() { inner.close() }
}
