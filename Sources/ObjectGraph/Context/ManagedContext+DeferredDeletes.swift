/// Deletes that a cascade records without making objects: a saved object that the context does
/// not hold, of a class that promises no deletion hooks
/// (``ManagedObject/deletesWithoutInstances``), is deleted as a row. Its delete rules run at once,
/// as for an object, and the save deletes the row directly; it becomes a deleted object, exactly
/// as a cascade would have made it, only when the context is asked for objects: `deleted` and
/// `registry` (every path that lists or looks up objects goes through one of them) make the
/// deferred deletes objects first.
extension ManagedContext {
    /// The saved objects a cascade deleted without making them objects, in the order of their
    /// deletes.
    struct DeferredDeletes {
        /// A value of a relationship removed from a deferred delete's row since it was read.
        struct Removal {
            let slot: Int
            let id: ObjectID
        }

        /// One deleted row.
        struct Entry {
            let entityIndex: Int
            let key: Int64
            let version: Int64
            /// The row's values as read.
            let committed: [StoreValue]
            /// The first removal (the cascade's unlinking of its source), kept inline.
            var removal: Removal?
            /// Later removals (another deleted object that also held it).
            var moreRemovals: [Removal] = []
            /// Whether a removal after its delete made it a touched object, as changing a
            /// deleted object's relationship does.
            var isTouched = false
            /// How many of `deletionOrder`'s objects were deleted before it; set when its delete
            /// completes (after its own delete rules).
            var position = Int.max
            /// Its place among the deferred deletes, in the order their deletes completed.
            var order = Int.max
        }

        private(set) var entries: [Entry] = []
        /// Per entity index, pages of `pageSize` slots by key holding an index in `entries` + 1
        /// (0: none): a lookup is two array reads, no hashing (keys are dense, from 1).
        private var pagesByEntity: [[[Int32]]] = []
        /// Keys beyond `maxPages` pages, and indexes beyond `Int32`, go to a dictionary.
        private var overflow: [Int: [Int64: Int]] = [:]
        private static let pageShift = 9
        private static let pageSize = 1 << pageShift
        private static let maxPages = 1 << 15
        private var completed = 0
        /// Whether `entries` is in the order the deletes completed (a delete whose rules
        /// deferred others completes after them).
        private(set) var isInOrder = true

        var isEmpty: Bool { entries.isEmpty }

        func index(ofEntity entityIndex: Int, key: Int64) -> Int? {
            guard entityIndex < pagesByEntity.count, key >= 1 else { return nil }
            let page = Int((key - 1) >> Self.pageShift)
            guard page < Self.maxPages else { return overflow[entityIndex]?[key] }
            let pages = pagesByEntity[entityIndex]
            guard page < pages.count, !pages[page].isEmpty else { return nil }
            let slot = pages[page][Int((key - 1) & Int64(Self.pageSize - 1))]
            if slot == Int32.max { return overflow[entityIndex]?[key] }
            return slot == 0 ? nil : Int(slot) - 1
        }

        /// Records a delete that has started (its rules are still to run).
        mutating func start(_ entry: Entry) -> Int {
            // A programmer error, not reachable by input: entries come from table rows, whose
            // keys `EntityTable` keeps within 1...maxKey.
            precondition(entry.key >= 1 && entry.key <= EntityTable.maxKey, "A deferred delete's key is a row's key.")
            let entityIndex = entry.entityIndex
            if entityIndex >= pagesByEntity.count {
                pagesByEntity.append(contentsOf: repeatElement([], count: entityIndex - pagesByEntity.count + 1))
            }
            let index = entries.count
            entries.append(entry)
            let page = Int((entry.key - 1) >> Self.pageShift)
            guard page < Self.maxPages else {
                overflow[entityIndex, default: [:]][entry.key] = index
                return index
            }
            if page >= pagesByEntity[entityIndex].count {
                pagesByEntity[entityIndex].append(
                    contentsOf: repeatElement([], count: page - pagesByEntity[entityIndex].count + 1))
            }
            if pagesByEntity[entityIndex][page].isEmpty {
                pagesByEntity[entityIndex][page] = Array(repeating: 0, count: Self.pageSize)
            }
            let offset = Int((entry.key - 1) & Int64(Self.pageSize - 1))
            if index < Int(Int32.max) - 1 {
                pagesByEntity[entityIndex][page][offset] = Int32(index + 1)
            } else {
                pagesByEntity[entityIndex][page][offset] = Int32.max
                overflow[entityIndex, default: [:]][entry.key] = index
            }
            return index
        }

        /// Records that the delete at `index` completed after `position` deleted objects.
        mutating func complete(at index: Int, position: Int) {
            if index != completed { isInOrder = false }
            entries[index].position = position
            entries[index].order = completed
            completed += 1
        }

        /// The entries in the order their deletes completed.
        var ordered: [Entry] { isInOrder ? entries : entries.sorted { $0.order < $1.order } }

        /// The current value of a relationship slot of the entry at `index`: its row's value less
        /// the removals.
        func value(at slot: Int, ofEntryAt index: Int) -> StoreValue {
            var value = entries[index].committed[slot]
            guard let removal = entries[index].removal else { return value }
            if removal.slot == slot { value = Self.removing(removal.id, from: value) }
            for removal in entries[index].moreRemovals where removal.slot == slot {
                value = Self.removing(removal.id, from: value)
            }
            return value
        }

        /// Removes `id` from the relationship at `slot` of the entry at `index`, as
        /// `ManagedObject.removeRelated(_:at:)` does; `touches` records it as a change of a deleted
        /// object.
        mutating func remove(_ id: ObjectID, at slot: Int, ofEntryAt index: Int, touches: Bool) {
            let current = value(at: slot, ofEntryAt: index)
            guard Self.removing(id, from: current) != current else { return }
            if entries[index].removal == nil {
                entries[index].removal = Removal(slot: slot, id: id)
            } else {
                entries[index].moreRemovals.append(Removal(slot: slot, id: id))
            }
            if touches { entries[index].isTouched = true }
        }

        /// The entry's values: its row's, less the removals.
        static func values(of entry: Entry) -> [StoreValue] {
            guard let first = entry.removal else { return entry.committed }
            var values = entry.committed
            for removal in [first] + entry.moreRemovals {
                values[removal.slot] = removing(removal.id, from: values[removal.slot])
            }
            return values
        }

        /// Whether `value` (a relationship's) holds `id`.
        static func holds(_ id: ObjectID, in value: StoreValue) -> Bool {
            switch value {
            case .object(let current): current == id
            case .objects(let ids): ids.contains(id)
            default: false
            }
        }

        /// `value` without `id`: a to-one that holds it becomes `.null`, a to-many loses its
        /// first occurrence.
        static func removing(_ id: ObjectID, from value: StoreValue) -> StoreValue {
            switch value {
            case .object(let current) where current == id:
                return .null
            case .objects(var ids):
                guard let index = ids.firstIndex(of: id) else { return value }
                ids.remove(at: index)
                return .objects(ids)
            default:
                return value
            }
        }
    }

    // MARK: - Reading through the deferred deletes

    /// The registered objects, after the deferred deletes became objects.
    var registry: ObjectRegistry {
        _read {
            materializeDeferredDeletes()
            yield registryStorage
        }
        _modify {
            materializeDeferredDeletes()
            yield &registryStorage
        }
    }

    /// The deleted objects, after the deferred deletes became objects.
    var deleted: ObjectIdentitySet<ManagedObject> {
        get {
            materializeDeferredDeletes()
            return deletedStorage
        }
        _modify {
            materializeDeferredDeletes()
            yield &deletedStorage
        }
    }

    /// The object registered for a key, or the deleted object of a deferred delete (making the
    /// deferred deletes objects); `nil` for neither.
    func registeredOrDeferred(entityIndex: Int, key: Int64) -> ManagedObject? {
        if let object = registryStorage.object(entityIndex: entityIndex, key: key) { return object }
        guard deferredDeletes.index(ofEntity: entityIndex, key: key) != nil else { return nil }
        materializeDeferredDeletes()
        return registryStorage.object(entityIndex: entityIndex, key: key)
    }

    /// Whether a cascade may defer the deletes of objects the context does not hold: nothing
    /// needs to see them as objects as they happen (an undo manager, a change journal, a
    /// fetched-results controller), and the context saves to the store.
    var canDeferDeletes: Bool {
        parent == nil && journal == nil && undoRecorder == nil && observation.listeners.isEmpty
    }

    /// Whether objects of `info` may be deleted without instances: its class promises no
    /// deletion hooks, and no `deny` rule asks for a check at save.
    private static func defersDeletes(of info: EntityInfo) -> Bool {
        info.managedObjectClass.deletesWithoutInstances
            && !info.hasDenyRule
    }

    // MARK: - Cascading

    /// Carries out a cascade from `source` to `targets`: a registered target (or one whose class
    /// has deletion hooks) goes to `deleteObject`, a deferrable one is deleted as a row, with its
    /// own delete rules; a target deleted already loses `source` from its inverse relationship.
    func cascadeDeferring(
        from source: ObjectID, to targets: [ObjectID], through relationship: EntityInfo.ResolvedRelationship,
        deleteObject: (ManagedObject) -> Void
    ) {
        var info: EntityInfo?
        var defers = false
        // The entity's description for making objects, found once per run of one entity.
        var materializing: EntityDescription?
        // A querying store's rows are read together first; the state returned holds them.
        var snapshot: StoreSnapshot? = prefetchUnregisteredRows(of: targets)
        for id in targets {
            if info?.name != id.entityName {
                info = model.info(named: id.entityName)
                defers = info.map(Self.defersDeletes(of:)) ?? false
                materializing = nil
            }
            guard let info else { continue }
            if let object = registryStorage.object(entityIndex: info.index, key: id.key) {
                deleteObject(object)
                continue
            }
            if let index = deferredDeletes.index(ofEntity: info.index, key: id.key) {
                // Deleted already: as `removeRelated(_:inverseOf:)` on a deleted object.
                if let slot = relationship.inverseSlot(in: info) {
                    deferredDeletes.remove(source, at: slot, ofEntryAt: index, touches: true)
                }
                continue
            }
            if snapshot == nil { snapshot = coordinator.snapshot() }
            guard
                let row = snapshot?.tables[info.index][id.key]
                    ?? (coordinator.querying != nil ? coordinator.committedRow(of: id, entityIndex: info.index) : nil)
            else { continue }
            if defers {
                deferDelete(of: info, key: id.key, row: row, unlinking: source, inverseOf: relationship)
            } else {
                if materializing == nil { materializing = registryStorage.materializingDescription(of: info) }
                deleteObject(makeRegisteredObject(info: info, key: id.key, row: row, materializing: materializing))
            }
        }
    }

    /// Deletes the row of an object the context does not hold, as `delete(_:)` would delete it
    /// after the cascade unlinked it from `source`: its own delete rules run now.
    private func deferDelete(
        of info: EntityInfo, key: Int64, row: EntityTable.Row, unlinking source: ObjectID,
        inverseOf relationship: EntityInfo.ResolvedRelationship
    ) {
        var entry = DeferredDeletes.Entry(
            entityIndex: info.index, key: key, version: row.version, committed: row.values)
        // The cascade unlinks it from `source` (`ContextDeleteActions.unlink`).
        let unlinked = relationship.inverseSlot(in: info)
        if let unlinked, DeferredDeletes.holds(source, in: row.values[unlinked]) {
            entry.removal = DeferredDeletes.Removal(slot: unlinked, id: source)
        }
        var index = deferredDeletes.start(entry)
        var actions = ContextDeleteActions(context: self)
        var id: ObjectID?
        var ranRules = false
        for (offset, rule) in info.relationships.enumerated() {
            let slot = info.attributeCount + offset
            // Most rows hold nothing but the unlinked source: no rule to run, nothing to look up.
            if !ranRules {
                switch row.values[slot] {
                case .null: continue
                case .object where slot == unlinked && entry.removal != nil: continue
                case .objects(let ids) where ids.isEmpty: continue
                default: break
                }
            }
            ranRules = true
            // Looked up each time: a rule may have made the deferred deletes objects.
            let value: StoreValue
            if let index = deferredDeletes.index(ofEntity: info.index, key: key) {
                value = deferredDeletes.value(at: slot, ofEntryAt: index)
            } else if let object = registryStorage.object(entityIndex: info.index, key: key) {
                value = object.values[slot]
            } else {
                break
            }
            let targets: [ObjectID]
            switch value {
            case .object(let target): targets = [target]
            case .objects(let ids): targets = ids
            default: continue
            }
            if id == nil { id = ObjectID(entityName: info.name, key: key) }
            actions.applyDeleteRule(of: rule, deleting: id!, targets: targets)
        }
        if ranRules {
            guard let found = deferredDeletes.index(ofEntity: info.index, key: key) else {
                // A rule made the deferred deletes objects, this one among them: it takes its
                // place in the order now, as an object's delete does after its rules.
                if let object = registryStorage.object(entityIndex: info.index, key: key),
                    deletedStorage.contains(object)
                {
                    deletionOrder.append(object)
                }
                return
            }
            index = found
        }
        deferredDeletes.complete(at: index, position: deletionOrder.count)
    }

    /// `prefetchRows(of:)` without making the deferred deletes objects.
    private func prefetchUnregisteredRows(of ids: [ObjectID]) -> StoreSnapshot? {
        guard coordinator.querying != nil, ids.count > 1 else { return nil }
        var keys: [Int: [Int64]] = [:]
        for id in ids {
            guard let info = model.info(named: id.entityName),
                registryStorage.object(entityIndex: info.index, key: id.key) == nil,
                deferredDeletes.index(ofEntity: info.index, key: id.key) == nil
            else { continue }
            keys[info.index, default: []].append(id.key)
        }
        guard !keys.isEmpty else { return nil }
        return try? coordinator.prefetchRows(keys)
    }

    // MARK: - Becoming objects

    /// Makes every deferred delete the deleted object a cascade would have made: registered,
    /// flagged deleted, in the deleted objects in the order of the deletes (and touched if a
    /// relationship of it changed after its delete). A delete whose rules are still running
    /// takes its place in the order when they end (`deferDelete`), as an object's delete does.
    func materializeDeferredDeletes() {
        guard !deferredDeletes.isEmpty else { return }
        let entries = deferredDeletes.ordered
        deferredDeletes = DeferredDeletes()
        var order: [ManagedObject] = []
        order.reserveCapacity(deletionOrder.count + entries.count)
        var next = 0
        for entry in entries {
            let position = min(entry.position, deletionOrder.count)
            if next < position {
                order += deletionOrder[next..<position]
                next = position
            }
            let object = makeRegisteredObject(
                info: model.infos[entry.entityIndex], key: entry.key,
                row: EntityTable.Row(version: entry.version, values: entry.committed))
            object.values = DeferredDeletes.values(of: entry)
            object.flags.isDeleted = true
            if entry.isTouched {
                object.flags.isTouched = true
                touched.insert(object)
            }
            deletedStorage.insert(object)
            journal?.materialized.append(object)
            guard entry.position != Int.max else { continue }
            order.append(object)
        }
        order += deletionOrder[next...]
        deletionOrder = order
    }

    // MARK: - Saving

    /// The writes that delete `objects` (the deleted objects in order) and the deferred deletes,
    /// in the order of the deletes.
    func deletedWrites(
        of objects: [ManagedObject], _ write: (ManagedObject) -> StoreCoordinator.Commit.Write
    ) -> [StoreCoordinator.Commit.Write] {
        guard !deferredDeletes.isEmpty else { return objects.map(write) }
        var writes: [StoreCoordinator.Commit.Write] = []
        writes.reserveCapacity(objects.count + deferredDeletes.entries.count)
        var next = 0
        for entry in deferredDeletes.ordered {
            while next < min(entry.position, objects.count) {
                writes.append(write(objects[next]))
                next += 1
            }
            writes.append(
                .init(
                    entityIndex: entry.entityIndex, key: entry.key, values: entry.committed,
                    expectedVersion: entry.version, original: entry.committed))
        }
        while next < objects.count {
            writes.append(write(objects[next]))
            next += 1
        }
        return writes
    }

    /// The deleted objects in the order of the deletes, leaving the deferred deletes as they are
    /// (`deletedWrites(of:_:)` places them), unless that order is by key.
    var orderedDeletedObjectsForSave: [ManagedObject] {
        if deletionOrderIsExact { return deletionOrder }
        return orderedDeletedObjects
    }
}

extension ManagedContext {
    /// Forgets the deferred deletes. Many of them (after a save, the last holders of the deleted
    /// rows' values) are freed on a background thread, as the coordinator frees the state a large
    /// delete replaced (`StoreCoordinator.releaseInBackground(_:)`).
    func discardDeferredDeletes() {
        guard !deferredDeletes.isEmpty else { return }
        var discarded: DeferredDeletes? = DeferredDeletes()
        swap(&discarded!, &deferredDeletes)
        guard discarded!.entries.count >= StoreCoordinator.backgroundReleaseThreshold else { return }
        StoreCoordinator.releaseInBackground(&discarded)
    }
}
