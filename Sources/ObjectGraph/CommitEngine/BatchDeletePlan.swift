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
    /// New values of surviving objects that referred to deleted ones, by entity index and key.
    private var nullified: [Int: [Int64: [StoreValue]]] = [:]
    /// `deny` relationships of deleted objects that reach objects, to check once all are known.
    private var denials: [(source: ObjectID, relationship: String, targets: [ObjectID])] = []
    /// Deleted objects whose rules are still to be applied, from `next` on.
    private var queue: [(entityIndex: Int, key: Int64)] = []
    /// Inverse slots to remove deleted objects from, gathered so that each is rewritten once
    /// (the sources of one slot in an array: most slots lose one object, and a set each cost an
    /// allocation and a hash of every ID).
    private var nullifications: [NullifiedSlot: [ObjectID]] = [:]
    /// `nullified` by entity index and key, made once the plan is complete.
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
    /// relationships of the survivors and checks the result.
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
        for (item, sources) in nullifications where !isDeleted(item.entityIndex, item.key) {
            guard
                var values = nullified[item.entityIndex]?[item.key]
                    ?? snapshot.tables[item.entityIndex][item.key]?.values
            else { continue }
            switch values[item.slot] {
            case .object(let id) where sources.contains(id): values[item.slot] = .null
            case .objects(let ids):
                if sources.count <= 8 {
                    guard ids.contains(where: sources.contains) else { continue }
                    values[item.slot] = .objects(ids.filter { !sources.contains($0) })
                } else {
                    let sources = Set(sources)
                    guard ids.contains(where: sources.contains) else { continue }
                    values[item.slot] = .objects(ids.filter { !sources.contains($0) })
                }
            default: continue
            }
            nullified[item.entityIndex, default: [:]][item.key] = values
        }
        nullifications.removeAll()
        nullifiedInOrder = nullified.sorted(by: { $0.key < $1.key }).flatMap { entityIndex, rows in
            rows.sorted(by: { $0.key < $1.key }).map { (entityIndex, $0.key, $0.value) }
        }
        try validate()
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
            nullifications[
                NullifiedSlot(entityIndex: entityIndex, key: target.key, slot: slot), default: []
            ]
            .append(source)
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
        for (entityIndex, key, values) in nullifiedInOrder {
            let info = model.infos[entityIndex]
            let stored = snapshot.tables[entityIndex][key]?.values
            for (offset, relationship) in info.relationships.enumerated() {
                let slot = info.attributeCount + offset
                // Only the relationships this batch emptied or shrank are its business.
                guard values[slot] != stored?[slot] else { continue }
                let description = relationship.description
                let count = Self.ids(values[slot]).count
                if count == 0, !description.isOptional {
                    failures.append(
                        .batchMissingRequiredValue(ObjectID(entityName: info.name, key: key), key: description.name))
                } else if description.isToMany, count > 0, description.minCount > 0, count < description.minCount {
                    failures.append(
                        .batchRelationshipCount(
                            ObjectID(entityName: info.name, key: key), relationship: description, count: count))
                }
            }
        }
        guard failures.isEmpty else { throw PersistenceError.validationFailed(failures) }
    }

    /// The commit: the emptied entities, deletes in the order reached, then the nullified
    /// objects by entity and key.
    func commit(origin: ContextIdentifier) -> Commit {
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
        for (entityIndex, key, values) in nullifiedInOrder {
            guard let row = snapshot.tables[entityIndex][key], row.values != values else { continue }
            commit.updated.append(
                Commit.Write(
                    entityIndex: entityIndex, key: key, values: values, expectedVersion: row.version,
                    original: row.values))
        }
        return commit
    }

    /// Where the `nullify` rule removes deleted objects from a surviving object's relationship.
    private struct NullifiedSlot: Hashable {
        let entityIndex: Int
        let key: Int64
        let slot: Int
    }

    private static func ids(_ value: StoreValue) -> [ObjectID] {
        switch value {
        case .object(let id): [id]
        case .objects(let ids): ids
        default: []
        }
    }
}
