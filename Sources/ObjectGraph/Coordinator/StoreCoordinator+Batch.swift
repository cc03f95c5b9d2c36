extension StoreCoordinator {
    /// Deletes the committed objects of `info` that `predicate` matches, with their delete rules,
    /// as one commit built from the committed state under the commit lock. Without a predicate,
    /// this is ``batchDeleteAll(_:origin:)``: the entity is emptied in one step.
    ///
    /// - Returns: The matched IDs in key order, and the commit's notification (`nil` if nothing
    ///   matched).
    /// - Throws: `.validation` listing every `deny` rule that refuses (and every object that the
    ///   `nullify` rule would leave without a required relationship); or the commit's errors. In
    ///   every case nothing changed.
    func batchDelete(
        _ info: EntityInfo, predicate: CompiledPredicate?, origin: ContextIdentifier
    ) throws -> (ids: DeletedObjectIDs, notification: SaveNotification?) {
        guard let predicate else { return try batchDeleteAll([info], origin: origin) }
        var matched: [ObjectID] = []
        let (_, notification) = try commit(
            preparing: { snapshot in
                let keys = Self.matches(info, predicate, in: snapshot)
                matched = keys.map { ObjectID(entityName: info.name, key: $0) }
                guard !keys.isEmpty else { return nil }
                var plan = BatchDeletePlan(model: model, snapshot: snapshot)
                try plan.delete(keys, of: info.index)
                return plan.commit(origin: origin)
            }, alwaysNotifies: true)
        return (.listed(matched), matched.isEmpty ? nil : notification)
    }

    /// Deletes every committed object of the entities `infos`, with their delete rules, as one
    /// commit that empties each entity's table in one step (and that a store may persist as one
    /// small record per entity): no row is visited unless it holds relationships.
    ///
    /// - Returns: The deleted IDs of `infos`, entity by entity in key order (kept as key runs,
    ///   made into IDs only when read), and the commit's notification (`nil` if the entities were
    ///   empty).
    /// - Throws: as ``batchDelete(_:predicate:origin:)``; in every case nothing changed.
    func batchDeleteAll(_ infos: [EntityInfo], origin: ContextIdentifier) throws -> (
        ids: DeletedObjectIDs, notification: SaveNotification?
    ) {
        var isEmpty = true
        let (_, notification) = try commit(
            preparing: { snapshot in
                let indexes = infos.map(\.index).filter { snapshot.tables[$0].count > 0 }
                guard !indexes.isEmpty else { return nil }
                isEmpty = false
                var plan = BatchDeletePlan(model: model, snapshot: snapshot)
                try plan.deleteAll(of: indexes)
                return plan.commit(origin: origin)
            }, alwaysNotifies: true)
        // The notification lists the emptied entities' IDs, entity by entity in key order.
        guard !isEmpty, let notification else { return (.listed([]), nil) }
        return (notification.emptied.map { .emptied($0) } ?? .listed([]), notification)
    }

    /// Sets `values` (by slot, checked) on the committed objects of `info` that `predicate`
    /// matches and that do not hold them already, as one commit.
    ///
    /// - Returns: The changed IDs in key order, and the commit's notification (`nil` if nothing
    ///   changed).
    /// - Throws: `.conflict` for a uniqueness constraint the new values break, or the commit's
    ///   errors. In every case nothing changed.
    func batchUpdate(
        _ info: EntityInfo, predicate: CompiledPredicate?, values: [(slot: Int, value: StoreValue)],
        origin: ContextIdentifier
    ) throws -> (ids: [ObjectID], notification: SaveNotification?) {
        var changed: [ObjectID] = []
        let (_, notification) = try commit(
            preparing: { snapshot in
                var commit = Commit(policy: .error, origin: origin)
                let table = snapshot.tables[info.index]
                for key in Self.matches(info, predicate, in: snapshot) {
                    guard let row = table[key] else { continue }
                    var updated = row.values
                    for (slot, value) in values { updated[slot] = value }
                    guard updated != row.values else { continue }
                    commit.updated.append(
                        Commit.Write(
                            entityIndex: info.index, key: key, values: updated, expectedVersion: row.version,
                            original: row.values))
                    changed.append(ObjectID(entityName: info.name, key: key))
                }
                return commit.updated.isEmpty ? nil : commit
            }, alwaysNotifies: true)
        return (changed, changed.isEmpty ? nil : notification)
    }

    /// The keys of the committed objects of `info` that `predicate` matches, in key order;
    /// relationship key paths see the same snapshot.
    private static func matches(_ info: EntityInfo, _ predicate: CompiledPredicate?, in snapshot: StoreSnapshot)
        -> [Int64]
    {
        let table = snapshot.tables[info.index]
        var keys: [Int64] = []
        guard let predicate else {
            keys.reserveCapacity(table.count)
            table.forEach { key, _ in keys.append(key) }
            return keys
        }
        let model = snapshot.model
        let resolver = PredicateResolver { id in
            guard let target = model.info(named: id.entityName) else { return nil }
            return snapshot.tables[target.index][id.key]?.values
        }
        table.forEach { key, row in
            let id = predicate.needsObjectID ? ObjectID(entityName: info.name, key: key) : nil
            if predicate.matches(row.values, objectID: id, resolver: resolver) { keys.append(key) }
        }
        return keys
    }
}

/// The writes of one batch delete: the matched objects, everything their `cascade` rules reach,
/// and the surviving objects whose inverse relationships the `nullify` rule empties.
private struct BatchDeletePlan {
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

    init(model: ManagedObjectModel, snapshot: StoreSnapshot) {
        self.model = model
        self.snapshot = snapshot
    }

    /// Deletes `keys` of the entity at `entityIndex` and everything their rules reach.
    mutating func delete(_ keys: [Int64], of entityIndex: Int) throws {
        var queue: [(Int, Int64)] = []
        for key in keys where deleted[entityIndex, default: []].insert(key).inserted {
            queue.append((entityIndex, key))
        }
        try follow(queue, nullifications: [:])
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
        var queue: [(Int, Int64)] = []
        var nullifications: [NullifiedSlot: Set<ObjectID>] = [:]
        for entityIndex in entityIndexes {
            let info = model.infos[entityIndex]
            for (offset, relationship) in info.relationships.enumerated() {
                let rule = relationship.description.deleteRule
                let destination = relationship.destinationIndex
                guard rule != .noAction, !emptied.contains(destination) else { continue }
                guard let inverseSlot = relationship.inverseSlot else {
                    let slot = info.attributeCount + offset
                    snapshot.tables[entityIndex].forEach { key, row in
                        applyRule(
                            of: relationship, targets: Self.ids(row.values[slot]),
                            source: ObjectID(entityName: info.name, key: key), queue: &queue,
                            nullifications: &nullifications)
                    }
                    continue
                }
                snapshot.tables[destination].forEach { key, row in
                    let sources = Self.ids(row.values[inverseSlot])
                    guard let source = sources.first else { return }
                    let target = ObjectID(entityName: model.infos[destination].name, key: key)
                    switch rule {
                    case .nullify:
                        let slot = NullifiedSlot(entityIndex: destination, key: key, slot: inverseSlot)
                        nullifications[slot, default: []].formUnion(sources)
                    default:
                        applyRule(
                            of: relationship, targets: [target], source: source, queue: &queue,
                            nullifications: &nullifications)
                    }
                }
            }
        }
        try follow(queue, nullifications: nullifications)
    }

    /// Whether the plan deletes the object.
    private func isDeleted(_ entityIndex: Int, _ key: Int64) -> Bool {
        emptied.contains(entityIndex) || (deleted[entityIndex]?.contains(key) ?? false)
    }

    /// Deletes the queued objects and what their rules reach, then empties the inverse
    /// relationships of the survivors and checks the result.
    private mutating func follow(_ queue: [(Int, Int64)], nullifications: [NullifiedSlot: Set<ObjectID>]) throws {
        var queue = queue
        var next = 0
        // Inverse slots to remove deleted objects from, gathered so that each is rewritten once.
        var nullifications = nullifications
        while next < queue.count {
            let (index, key) = queue[next]
            next += 1
            order.append((index, key))
            guard let row = snapshot.tables[index][key] else { continue }
            applyRules(of: row, key: key, info: model.infos[index], queue: &queue, nullifications: &nullifications)
        }
        for (item, sources) in nullifications where !isDeleted(item.entityIndex, item.key) {
            guard
                var values = nullified[item.entityIndex]?[item.key]
                    ?? snapshot.tables[item.entityIndex][item.key]?.values
            else { continue }
            switch values[item.slot] {
            case .object(let id) where sources.contains(id): values[item.slot] = .null
            case .objects(let ids) where ids.contains(where: sources.contains):
                values[item.slot] = .objects(ids.filter { !sources.contains($0) })
            default: continue
            }
            nullified[item.entityIndex, default: [:]][item.key] = values
        }
        try validate()
    }

    /// The delete rules of one deleted object's relationships.
    private mutating func applyRules(
        of row: EntityTable.Row, key: Int64, info: EntityInfo, queue: inout [(Int, Int64)],
        nullifications: inout [NullifiedSlot: Set<ObjectID>]
    ) {
        for (offset, relationship) in info.relationships.enumerated() {
            let targets = Self.ids(row.values[info.attributeCount + offset])
            guard !targets.isEmpty else { continue }
            applyRule(
                of: relationship, targets: targets, source: ObjectID(entityName: info.name, key: key), queue: &queue,
                nullifications: &nullifications)
        }
    }

    /// The delete rule of one relationship of the deleted object `source` that reaches `targets`:
    /// `cascade` queues them, `nullify` gathers the inverse slots to empty, `deny` is noted for
    /// `validate()`.
    private mutating func applyRule(
        of relationship: EntityInfo.ResolvedRelationship, targets: [ObjectID], source: ObjectID,
        queue: inout [(Int, Int64)], nullifications: inout [NullifiedSlot: Set<ObjectID>]
    ) {
        guard !targets.isEmpty else { return }
        let destination = relationship.destinationIndex
        switch relationship.description.deleteRule {
        case .nullify:
            guard let inverseSlot = relationship.inverseSlot, !emptied.contains(destination) else { return }
            for target in targets {
                nullifications[NullifiedSlot(entityIndex: destination, key: target.key, slot: inverseSlot), default: []]
                    .insert(source)
            }
        case .cascade:
            guard !emptied.contains(destination) else { return }
            for target in targets where snapshot.tables[destination][target.key] != nil {
                if deleted[destination, default: []].insert(target.key).inserted {
                    queue.append((destination, target.key))
                }
            }
        case .deny:
            denials.append((source, relationship.description.name, targets))
        case .noAction:
            return
        }
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
        for (entityIndex, rows) in nullified.sorted(by: { $0.key < $1.key }) {
            let info = model.infos[entityIndex]
            for (key, values) in rows.sorted(by: { $0.key < $1.key }) {
                let id = ObjectID(entityName: info.name, key: key)
                let stored = snapshot.tables[entityIndex][key]?.values
                for (offset, relationship) in info.relationships.enumerated() {
                    let slot = info.attributeCount + offset
                    // Only the relationships this batch emptied or shrank are its business.
                    guard values[slot] != stored?[slot] else { continue }
                    let description = relationship.description
                    let count = Self.ids(values[slot]).count
                    if count == 0, !description.isOptional {
                        failures.append(.batchMissingRequiredValue(id, key: description.name))
                    } else if description.isToMany, count > 0, description.minCount > 0, count < description.minCount {
                        failures.append(.batchRelationshipCount(id, relationship: description, count: count))
                    }
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
        for (entityIndex, rows) in nullified.sorted(by: { $0.key < $1.key }) {
            for (key, values) in rows.sorted(by: { $0.key < $1.key }) {
                guard let row = snapshot.tables[entityIndex][key], row.values != values else { continue }
                commit.updated.append(
                    Commit.Write(
                        entityIndex: entityIndex, key: key, values: values, expectedVersion: row.version,
                        original: row.values))
            }
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
