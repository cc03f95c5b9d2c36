/// The writes of one batch delete: the matched objects, everything their `cascade` rules reach,
/// and the surviving objects whose inverse relationships the `nullify` rule empties.
struct BatchDeletePlan: DeleteRuleActions {
    typealias Commit = StoreCoordinator.Commit

    let model: ManagedObjectModel
    let snapshot: StoreSnapshot
    /// Deleted keys by entity index, and the same in the order they were reached.
    private var deleted: [Int: Set<Int64>] = [:]
    private var order: [(entityIndex: Int, key: Int64)] = []
    /// Entities whose every object is deleted, in one step.
    private var emptied: Set<Int> = []
    /// `deny` relationships of deleted objects that reach objects, to check once all are known.
    private var denials: [(source: ObjectID, relationship: String, targets: [ObjectID])] = []
    /// Deleted objects whose rules are still to be applied, from `next` on.
    private var queue: [(entityIndex: Int, key: Int64)] = []
    /// Inverse slots to remove deleted objects from, one entry per source, sorted by row and slot
    /// once the deletions are known so that each row is read and rewritten once (no hashing and
    /// no array per slot: most slots lose one object).
    private var nullifications: [(entityIndex: Int, key: Int64, slot: Int, source: ObjectID)] = []
    /// New values of surviving objects that referred to deleted ones, by entity index and key.
    private var nullifiedInOrder: [(entityIndex: Int, key: Int64, values: [StoreValue])] = []

    init(model: ManagedObjectModel, snapshot: StoreSnapshot) {
        self.model = model
        self.snapshot = snapshot
    }

    /// Deletes `keys` of the entity at `entityIndex` and everything their rules reach.
    mutating func delete(_ keys: [Int64], of entityIndex: Int) throws {
        for key in keys where deleted[entityIndex, default: []].insert(key).inserted {
            queue.append((entityIndex, key))
        }
        try follow()
    }

    /// Deletes every object of each entity in `entityIndexes`, in one step, and everything their
    /// rules reach.
    ///
    /// A relationship with an inverse is followed from the other side: the destination objects
    /// whose inverse refers to the emptied entity are exactly the targets (inverses are kept
    /// in step), so only those objects are visited, not the emptied rows. Only a relationship
    /// without an inverse makes the emptied rows be visited, for its rule.
    ///
    /// - Complexity: O(*d*) for the *d* objects of destination entities (none without
    ///   relationships), plus O(*n*) for the *n* emptied objects if a rule-bearing relationship
    ///   has no inverse.
    mutating func deleteAll(of entityIndexes: [Int]) throws {
        emptied.formUnion(entityIndexes)
        for entityIndex in entityIndexes {
            let info = model.infos[entityIndex]
            for (offset, relationship) in info.relationships.enumerated() {
                let rule = relationship.description.deleteRule
                // With inheritance, the destination's sub-entities hold targets too.
                let destinations = model.infos[relationship.destinationIndex].familyIndexes.filter {
                    !emptied.contains($0)
                }
                guard rule != .noAction, !destinations.isEmpty else { continue }
                guard let inverseSlot = relationship.inverseSlot else {
                    let slot = info.attributeCount + offset
                    snapshot.tables[entityIndex].forEach { key, row in
                        applyDeleteRule(
                            of: relationship, deleting: ObjectID(entityName: info.name, key: key),
                            targets: Self.ids(row.values[slot]))
                    }
                    continue
                }
                for destination in destinations {
                    let destinationSlot = model.infos[relationship.destinationIndex].slot(
                        inverseSlot, in: model.infos[destination])
                    snapshot.tables[destination].forEach { key, row in
                        let sources = Self.ids(row.values[destinationSlot])
                        guard let source = sources.first else { return }
                        let target = ObjectID(entityName: model.infos[destination].name, key: key)
                        if rule == .nullify {
                            // Every source is deleted: each leaves the target's inverse.
                            for source in sources {
                                applyDeleteRule(of: relationship, deleting: source, targets: [target])
                            }
                        } else {
                            // One deleted source is enough to cascade to or be denied by the target.
                            applyDeleteRule(of: relationship, deleting: source, targets: [target])
                        }
                    }
                }
            }
        }
        try follow()
    }

    /// Whether the plan deletes the object.
    private func isDeleted(_ entityIndex: Int, _ key: Int64) -> Bool {
        emptied.contains(entityIndex) || (deleted[entityIndex]?.contains(key) ?? false)
    }

    /// Deletes the queued objects and what their rules reach, then empties the inverse
    /// relationships of the survivors. The result is checked once, by ``commit(origin:)``: a
    /// survivor of one call may be deleted by the next (another member of an entity family).
    private mutating func follow() throws {
        var next = 0
        while next < queue.count {
            let (index, key) = queue[next]
            next += 1
            order.append((index, key))
            guard let row = snapshot.tables[index][key] else { continue }
            let info = model.infos[index]
            let source = ObjectID(entityName: info.name, key: key)
            for (offset, relationship) in info.relationships.enumerated() {
                applyDeleteRule(
                    of: relationship, deleting: source, targets: Self.ids(row.values[info.attributeCount + offset]))
            }
        }
        queue.removeAll()
        applyNullifications()
    }

    /// Removes the deleted sources gathered in `nullifications` from the surviving rows, each row
    /// read and rewritten once, into `nullifiedInOrder` (kept sorted by entity index and key, so
    /// that a later `follow()` finds the values it rewrote before).
    private mutating func applyNullifications() {
        guard !nullifications.isEmpty else { return }
        nullifications.sort { ($0.entityIndex, $0.key, $0.slot) < ($1.entityIndex, $1.key, $1.slot) }
        let hadEarlier = !nullifiedInOrder.isEmpty
        var fresh: [(entityIndex: Int, key: Int64, values: [StoreValue])] = []
        var start = 0
        while start < nullifications.count {
            let (entityIndex, key) = (nullifications[start].entityIndex, nullifications[start].key)
            var end = start + 1
            while end < nullifications.count, nullifications[end].entityIndex == entityIndex,
                nullifications[end].key == key
            {
                end += 1
            }
            defer { start = end }
            guard !isDeleted(entityIndex, key) else { continue }
            let earlier = hadEarlier ? nullifiedIndex(entityIndex, key) : nil
            guard var values = earlier.map({ nullifiedInOrder[$0].values }) ?? snapshot.tables[entityIndex][key]?.values
            else { continue }
            var changed = false
            var slotStart = start
            while slotStart < end {
                let slot = nullifications[slotStart].slot
                var slotEnd = slotStart + 1
                while slotEnd < end, nullifications[slotEnd].slot == slot { slotEnd += 1 }
                let sources = nullifications[slotStart..<slotEnd]
                slotStart = slotEnd
                switch values[slot] {
                case .object(let id) where sources.contains(where: { $0.source == id }):
                    values[slot] = .null
                case .objects(let ids):
                    if sources.count <= 8 {
                        let isSource = { (id: ObjectID) in sources.contains { $0.source == id } }
                        guard ids.contains(where: isSource) else { continue }
                        values[slot] = .objects(ids.filter { !isSource($0) })
                    } else {
                        let sources = Set(sources.map(\.source))
                        guard ids.contains(where: sources.contains) else { continue }
                        values[slot] = .objects(ids.filter { !sources.contains($0) })
                    }
                default: continue
                }
                changed = true
            }
            guard changed else { continue }
            if let earlier {
                nullifiedInOrder[earlier].values = values
            } else {
                fresh.append((entityIndex, key, values))
            }
        }
        nullifications.removeAll()
        guard !fresh.isEmpty else { return }
        if hadEarlier {
            nullifiedInOrder += fresh
            nullifiedInOrder.sort { ($0.entityIndex, $0.key) < ($1.entityIndex, $1.key) }
        } else {
            nullifiedInOrder = fresh
        }
    }

    /// The position of the row in `nullifiedInOrder`, found by binary search.
    private func nullifiedIndex(_ entityIndex: Int, _ key: Int64) -> Int? {
        var low = 0
        var high = nullifiedInOrder.count
        while low < high {
            let middle = (low + high) / 2
            let item = nullifiedInOrder[middle]
            if (item.entityIndex, item.key) < (entityIndex, key) { low = middle + 1 } else { high = middle }
        }
        guard low < nullifiedInOrder.count, nullifiedInOrder[low].entityIndex == entityIndex,
            nullifiedInOrder[low].key == key
        else { return nil }
        return low
    }

    // MARK: - Delete rule actions, on committed rows

    /// Gathers the inverse slot of each target to remove `source` from (unless the target's
    /// whole entity is emptied).
    mutating func nullify(_ source: ObjectID, inverseSlot: Int, of targets: [ObjectID], destinationIndex: Int) {
        let hasSubentities = model.infos[destinationIndex].hasSubentities
        for target in targets {
            // With inheritance, a target may be an object of a sub-entity (the slot is the same).
            let entityIndex =
                hasSubentities && target.entityName != model.infos[destinationIndex].name
                ? model.info(named: target.entityName)?.index ?? destinationIndex : destinationIndex
            guard !emptied.contains(entityIndex) else { continue }
            let slot = model.infos[destinationIndex].slot(inverseSlot, in: model.infos[entityIndex])
            nullifications.append((entityIndex, target.key, slot, source))
        }
    }

    /// Queues each existing target for deletion (unless its whole entity is emptied).
    mutating func cascade(
        from source: ObjectID, to targets: [ObjectID], through relationship: EntityInfo.ResolvedRelationship
    ) {
        for target in targets {
            // With inheritance, a target may be an object of a sub-entity.
            let destination = model.entityIndex(of: target, heldBy: relationship)
            guard !emptied.contains(destination), snapshot.tables[destination][target.key] != nil else { continue }
            if deleted[destination, default: []].insert(target.key).inserted {
                queue.append((destination, target.key))
            }
        }
    }

    /// Notes the denial, checked by `validate()` once every deletion is known.
    mutating func deny(_ source: ObjectID, through relationship: EntityInfo.ResolvedRelationship, targets: [ObjectID]) {
        denials.append((source, relationship.description.name, targets))
    }

    /// Every `deny` rule that still reaches a surviving object, and every surviving object the
    /// `nullify` rule leaves without a required relationship or under its minimum count.
    private func validate() throws {
        var failures: [PersistenceError] = []
        for denial in denials {
            let remaining = denial.targets.contains { target in
                guard let info = model.info(named: target.entityName) else { return false }
                return snapshot.tables[info.index][target.key] != nil && !isDeleted(info.index, target.key)
            }
            if remaining { failures.append(.batchDeleteDenied(denial.source, relationship: denial.relationship)) }
        }
        for (entityIndex, key, values) in nullifiedInOrder where !isDeleted(entityIndex, key) {
            let info = model.infos[entityIndex]
            let stored = snapshot.tables[entityIndex][key]?.values
            for offset in info.relationships.indices {
                let slot = info.attributeCount + offset
                // Only the relationships this batch emptied or shrank are its business.
                guard values[slot] != stored?[slot] else { continue }
                // Read in place: a copy of the description costs more than the check.
                let count = Self.ids(values[slot]).count
                if count == 0, !info.relationships[offset].description.isOptional {
                    let id = ObjectID(entityName: info.name, key: key)
                    failures.append(.batchMissingRequiredValue(id, key: info.relationships[offset].description.name))
                } else if info.relationships[offset].description.isToMany, count > 0,
                    count < info.relationships[offset].description.minCount
                {
                    let id = ObjectID(entityName: info.name, key: key)
                    failures.append(
                        .batchRelationshipCount(id, relationship: info.relationships[offset].description, count: count))
                }
            }
        }
        guard failures.isEmpty else { throw PersistenceError.validationFailed(failures) }
    }

    /// The commit: the emptied entities, deletes in the order reached, then the nullified
    /// objects that survive, by entity and key. Throws the `deny` rules and nullified
    /// relationships that fail, as one validation error.
    func commit(origin: ContextIdentifier) throws -> Commit {
        try validate()
        var commit = Commit(policy: .error, origin: origin)
        commit.emptied = emptied.sorted()
        commit.deleted.reserveCapacity(order.count)
        for (entityIndex, key) in order {
            guard let row = snapshot.tables[entityIndex][key] else { continue }
            commit.deleted.append(
                Commit.Write(
                    entityIndex: entityIndex, key: key, values: row.values, expectedVersion: row.version,
                    original: row.values))
        }
        commit.updated.reserveCapacity(nullifiedInOrder.count)
        for (entityIndex, key, values) in nullifiedInOrder where !isDeleted(entityIndex, key) {
            guard let row = snapshot.tables[entityIndex][key], row.values != values else { continue }
            commit.updated.append(
                Commit.Write(
                    entityIndex: entityIndex, key: key, values: values, expectedVersion: row.version,
                    original: row.values))
        }
        return commit
    }

    private static func ids(_ value: StoreValue) -> [ObjectID] {
        switch value {
        case .object(let id): [id]
        case .objects(let ids): ids
        default: []
        }
    }
}
