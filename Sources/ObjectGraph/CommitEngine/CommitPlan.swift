/// The work of one commit on a copy of the committed state: conflict resolution, uniqueness,
/// integrity. Nothing here is visible until the coordinator publishes `next`.
struct CommitPlan {
    typealias Write = StoreCoordinator.Commit.Write
    typealias Outcome = StoreCoordinator.Outcome

    let model: ManagedObjectModel
    let current: StoreSnapshot
    let policy: MergePolicy
    var next: StoreSnapshot
    var uniqueIndexes: [Int: [UniqueIndex]]
    var inserts: StoreCoordinator.Commit.Inserts = []
    var updates: [Write] = []
    var deletes: [Write] = []
    /// Entities whose every object this commit deletes in one step, and those objects' keys.
    var emptied: [Int] = []
    var emptiedEntities: EmptiedEntities?
    /// The keys of the emptied entities' objects, when `current` does not hold their rows.
    var emptiedKeyRuns: [Int: [Range<Int64>]]?
    var outcomes: [ObjectID: Outcome] = [:]
    /// Inserted keys merged into another object of the same entity: (entity, from) → to.
    var merged: [Int: [Int64: Int64]] = [:]
    /// Stored objects that absorbed a merged insert, so they are written too.
    var mergeTargets: [(entityIndex: Int, key: Int64)] = []

    init(model: ManagedObjectModel, current: StoreSnapshot, policy: MergePolicy, uniqueIndexes: [Int: [UniqueIndex]]) {
        self.model = model
        self.current = current
        self.policy = policy
        self.next = current
        self.uniqueIndexes = uniqueIndexes
    }

    /// The key of the stored object an inserted duplicate merged into, if it did.
    func mergeTarget(of write: Write) -> Int64? {
        merged.isEmpty ? nil : merged[write.entityIndex]?[write.key]
    }

    func id(_ entityIndex: Int, _ key: Int64) -> ObjectID {
        ObjectID(entityName: model.infos[entityIndex].name, key: key)
    }

    // MARK: - Optimistic locking

    /// Keeps writes whose object is as the context read it, and resolves the others by policy.
    mutating func resolveStaleObjects(_ commit: StoreCoordinator.Commit) throws {
        var conflicts: [PersistenceError] = []
        inserts = commit.inserted
        emptied = commit.emptied
        emptiedKeyRuns = commit.emptiedKeyRuns
        for write in commit.updated {
            let objectID = id(write.entityIndex, write.key)
            let stored = current.tables[write.entityIndex][write.key]
            if let stored, stored.version == write.expectedVersion {
                updates.append(write)
                continue
            }
            guard policy != .error else {
                conflicts.append(.staleObject(objectID, expected: write.expectedVersion, found: stored?.version))
                continue
            }
            guard let stored else {
                // Deleted elsewhere: an object-trump policy brings this context's object back.
                if policy.objectWins {
                    var revived = write
                    revived.isResolved = true
                    updates.append(revived)
                } else {
                    outcomes[objectID] = .gone
                }
                continue
            }
            switch policy {
            case .storeTrump:
                outcomes[objectID] = .refreshed(version: stored.version, values: stored.values)
            case .objectTrump:
                var resolved = write
                resolved.expectedVersion = stored.version
                resolved.isResolved = true
                updates.append(resolved)
            default:
                var values = stored.values
                let original = write.original ?? stored.values
                for slot in values.indices where write.values[slot] != original[slot] {
                    let theyChanged = stored.values[slot] != original[slot]
                    if policy == .mergeByPropertyObjectTrump || !theyChanged { values[slot] = write.values[slot] }
                }
                var resolved = write
                resolved.values = values
                resolved.expectedVersion = stored.version
                resolved.isResolved = true
                updates.append(resolved)
            }
        }
        for write in commit.deleted {
            let objectID = id(write.entityIndex, write.key)
            guard let stored = current.tables[write.entityIndex][write.key] else {
                outcomes[objectID] = .deleted  // already deleted elsewhere: nothing is lost
                continue
            }
            if stored.version == write.expectedVersion || policy.objectWins {
                deletes.append(write)
            } else if policy == .error {
                conflicts.append(.staleObject(objectID, expected: write.expectedVersion, found: stored.version))
            } else {
                outcomes[objectID] = .refreshed(version: stored.version, values: stored.values)
            }
        }
        guard conflicts.isEmpty else { throw PersistenceError.conflicts(conflicts) }
    }

    // MARK: - Applying

    mutating func apply() {
        applyEmptied()
        // A deleted object's outcome is implied (`finalOutcomes` leaves deletions out): no entry.
        for write in deletes {
            next.tables[write.entityIndex].set(nil, forKey: write.key)
        }
        for write in updates {
            // Wrapping: a version need only differ from the last one (it is compared for
            // equality), and a damaged file's `Int64.max` must not trap.
            let version = (current.tables[write.entityIndex][write.key]?.version ?? write.expectedVersion) &+ 1
            next.tables[write.entityIndex].set(.init(version: version, values: write.values), forKey: write.key)
        }
        for write in inserts {
            next.tables[write.entityIndex].set(.init(version: 1, values: write.values), forKey: write.key)
        }
    }

    // MARK: - Results

    /// The outcome of every object that did not end as the context wrote it: an object missing
    /// from the result was saved (or deleted) exactly as written, at the next version.
    func finalOutcomes() -> [ObjectID: Outcome] {
        var result = outcomes.filter { if case .deleted = $0.value { false } else { true } }
        func record(_ write: Write, isInsert: Bool) {
            let key = mergeTarget(of: write) ?? write.key
            guard let row = next.tables[write.entityIndex][key] else { return }
            let expectedVersion = isInsert ? 1 : write.expectedVersion &+ 1
            if !write.isResolved && key == write.key && row.version == expectedVersion && row.values == write.values {
                return
            }
            result[id(write.entityIndex, write.key)] = .saved(
                id(write.entityIndex, key), version: row.version, values: row.values)
        }
        for write in updates { record(write, isInsert: false) }
        for write in inserts { record(write, isInsert: true) }
        for target in mergeTargets {
            guard let row = next.tables[target.entityIndex][target.key] else { continue }
            let objectID = id(target.entityIndex, target.key)
            result[objectID] = .saved(objectID, version: row.version, values: row.values)
        }
        return result
    }

    /// Publishes the notification of this commit: the final IDs of what it inserted, updated and
    /// deleted (a merged duplicate is an update of the object it merged into). The ID sets are
    /// built only when someone listens, or `always`; the notification is returned when built.
    @discardableResult
    func publish(to broadcaster: SaveBroadcaster, origin: ContextIdentifier, always: Bool = false)
        -> SaveNotification?
    {
        guard !(inserts.isEmpty && updates.isEmpty && deletes.isEmpty && mergeTargets.isEmpty && emptied.isEmpty)
        else { return nil }
        return broadcaster.publish(origin: origin, always: always, emptied: emptiedEntities) {
            var inserted: Set<ObjectID> = []
            var updated: Set<ObjectID> = []
            for write in inserts {
                if let target = mergeTarget(of: write) {
                    if current.tables[write.entityIndex][target] != nil {
                        updated.insert(id(write.entityIndex, target))
                    }
                } else {
                    inserted.insert(id(write.entityIndex, write.key))
                }
            }
            for write in updates {
                let objectID = id(write.entityIndex, write.key)
                if current.tables[write.entityIndex][write.key] == nil {
                    inserted.insert(objectID)
                } else {
                    updated.insert(objectID)
                }
            }
            for target in mergeTargets { updated.insert(id(target.entityIndex, target.key)) }
            let deleted = Set(deletes.map { id($0.entityIndex, $0.key) })
            return (inserted, updated, deleted)
        }
    }

    /// What the store persists; without the inserted and updated records unless `withRecords`
    /// (a ``SnapshotPersistingStore`` keeps the snapshot only).
    func changeSet(withRecords: Bool = true) -> StoreChangeSet {
        func storedRecord(_ entityIndex: Int, _ key: Int64) -> StoreRecord? {
            next.tables[entityIndex][key].map {
                StoreRecord(objectID: id(entityIndex, key), version: $0.version, values: $0.values)
            }
        }
        var insertedRecords: [StoreRecord] = []
        insertedRecords.reserveCapacity(withRecords ? inserts.count : 0)
        for write in withRecords ? inserts : [] where mergeTarget(of: write) == nil {
            if let record = storedRecord(write.entityIndex, write.key) { insertedRecords.append(record) }
        }
        var updatedRecords: [StoreRecord] = []
        updatedRecords.reserveCapacity(withRecords ? updates.count + mergeTargets.count : 0)
        // An update of an object deleted elsewhere that this context's policy brought back is
        // stored as an insert.
        var revived: [StoreRecord] = []
        for write in updates where withRecords {
            guard let record = storedRecord(write.entityIndex, write.key) else { continue }
            if current.tables[write.entityIndex][write.key] == nil {
                revived.append(record)
            } else {
                updatedRecords.append(record)
            }
        }
        for target in mergeTargets where withRecords {
            if let record = storedRecord(target.entityIndex, target.key) { updatedRecords.append(record) }
        }
        var changes = StoreChangeSet(
            inserted: revived.isEmpty ? insertedRecords : insertedRecords + revived, updated: updatedRecords,
            individuallyDeleted: deletes.map { id($0.entityIndex, $0.key) }, emptied: emptiedEntities, snapshot: next)
        changes.previous = current
        return changes
    }
}
