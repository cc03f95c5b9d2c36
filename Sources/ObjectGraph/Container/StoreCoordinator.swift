import Synchronization

/// The committed state of one container: an indexed record table, the store behind it, and the
/// one place where commits are serialised.
///
/// A fetch copies the current snapshot (O(1)) and works outside the lock. A commit checks
/// versions, asks the store to persist the change, and only then publishes the new snapshot, so
/// a store failure changes nothing.
final class StoreCoordinator: Sendable {
    struct Commit {
        struct Write {
            let entityIndex: Int
            let key: Int64
            let values: [StoreValue]
            /// The version the context read; 0 for an insert.
            let expectedVersion: Int64
        }
        var inserted: [Write] = []
        var updated: [Write] = []
        var deleted: [Write] = []
        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    private struct State {
        var snapshot: StoreSnapshot
        var nextKeys: [Int64]
    }

    let model: ManagedObjectModel
    let store: any PersistentStore
    private let state: Mutex<State>
    /// Held for the whole of a commit, store I/O included; fetches never wait for it.
    private let commitLock = Mutex(())

    init(model: ManagedObjectModel, store: any PersistentStore) throws {
        let snapshot = try store.load(model: model)
        self.model = model
        self.store = store
        self.state = Mutex(State(snapshot: snapshot, nextKeys: snapshot.tables.map(\.nextKey)))
    }

    deinit {
        store.close()
    }

    /// The committed state now.
    func snapshot() -> StoreSnapshot {
        state.withLock { $0.snapshot }
    }

    /// A new, never used key for an object of the entity at `entityIndex`.
    func allocateKey(entityIndex: Int) -> Int64 {
        state.withLock { state in
            let key = state.nextKeys[entityIndex]
            precondition(
                key <= EntityTable.maxKey,
                "Entity '\(model.infos[entityIndex].name)' has used all \(EntityTable.maxKey) object keys.")
            state.nextKeys[entityIndex] = key + 1
            return key
        }
    }

    /// Applies a commit if every updated or deleted record still has the version the context
    /// read, after the store made it durable.
    ///
    /// - Throws: `PersistenceError.Code.conflict` listing every stale object, or the store's error;
    ///   in both cases nothing changed.
    @discardableResult
    func commit(_ commit: Commit) throws -> StoreSnapshot {
        try commitLock.withLock { _ in
            let (current, nextKeys) = state.withLock { ($0.snapshot, $0.nextKeys) }
            var next = current
            var conflicts: [PersistenceError] = []
            for write in commit.updated + commit.deleted {
                let id = ObjectID(entityName: model.infos[write.entityIndex].name, key: write.key)
                let stored = current.tables[write.entityIndex][write.key]
                if stored?.version != write.expectedVersion {
                    conflicts.append(.staleObject(id, expected: write.expectedVersion, found: stored?.version))
                }
            }
            guard conflicts.isEmpty else { throw PersistenceError.conflicts(conflicts) }

            var changes = StoreChangeSet(inserted: [], updated: [], deleted: [], snapshot: current)
            for write in commit.inserted {
                next.tables[write.entityIndex].set(.init(version: 1, values: write.values), forKey: write.key)
                changes.inserted.append(record(write, version: 1))
            }
            for write in commit.updated {
                let version = write.expectedVersion + 1
                next.tables[write.entityIndex].set(.init(version: version, values: write.values), forKey: write.key)
                changes.updated.append(record(write, version: version))
            }
            for write in commit.deleted {
                next.tables[write.entityIndex].set(nil, forKey: write.key)
                changes.deleted.append(ObjectID(entityName: model.infos[write.entityIndex].name, key: write.key))
            }
            let dangling = danglingReferences(in: commit.inserted + commit.updated, before: current, after: next)
            guard dangling.isEmpty else { throw PersistenceError.conflicts(dangling) }
            for index in next.tables.indices where nextKeys[index] > next.tables[index].nextKey {
                next.tables[index].nextKey = nextKeys[index]
            }
            changes.snapshot = next
            try store.save(changes)
            state.withLock { $0.snapshot = next }
            return next
        }
    }

    /// A conflict for every relationship target that a write adds and the resulting state does
    /// not hold (deleted elsewhere since this context read it). Targets the stored row already
    /// had are not checked: a relationship without an inverse may legitimately outlive them.
    private func danglingReferences(in writes: [Commit.Write], before current: StoreSnapshot, after next: StoreSnapshot)
        -> [PersistenceError]
    {
        var conflicts: [PersistenceError] = []
        for write in writes {
            let info = model.infos[write.entityIndex]
            for (offset, relationship) in info.relationships.enumerated() {
                let targets: [ObjectID]
                switch write.values[info.attributeCount + offset] {
                case .object(let id): targets = [id]
                case .objects(let ids): targets = ids
                default: continue
                }
                let table = next.tables[relationship.destinationIndex]
                let stored = current.tables[write.entityIndex][write.key]?.values[info.attributeCount + offset]
                for target in targets where table[target.key] == nil && !(stored?.refers(to: target) ?? false) {
                    conflicts.append(
                        .danglingReference(
                            ObjectID(entityName: info.name, key: write.key), key: relationship.description.name,
                            target: target))
                }
            }
        }
        return conflicts
    }

    private func record(_ write: Commit.Write, version: Int64) -> StoreRecord {
        StoreRecord(
            objectID: ObjectID(entityName: model.infos[write.entityIndex].name, key: write.key), version: version,
            values: write.values)
    }
}
