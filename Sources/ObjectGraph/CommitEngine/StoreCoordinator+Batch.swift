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
    ///
    /// With inheritance, `members` are the entity and its sub-entities, each with the predicate
    /// compiled for it (their objects are the entity's too).
    func batchDelete(
        _ members: [(info: EntityInfo, predicate: CompiledPredicate?)], origin: ContextIdentifier
    ) throws -> (ids: DeletedObjectIDs, notification: SaveNotification?) {
        guard members.contains(where: { $0.predicate != nil }) else {
            return try batchDeleteAll(members.map(\.info), origin: origin)
        }
        var matched: [ObjectID] = []
        let (_, notification) = try commit(
            preparing: { snapshot in
                matched = []
                var plan = BatchDeletePlan(model: model, snapshot: snapshot)
                for (member, predicate) in members {
                    let keys = Self.matches(member, predicate, in: snapshot)
                    guard !keys.isEmpty else { continue }
                    matched += keys.map { ObjectID(entityName: member.name, key: $0) }
                    try plan.delete(keys, of: member.index)
                }
                guard !matched.isEmpty else { return nil }
                return plan.commit(origin: origin)
            }, alwaysNotifies: true, readsWholeStore: true)
        return (.listed(matched), matched.isEmpty ? nil : notification)
    }

    /// Deletes every committed object of the entities `infos`, with their delete rules, as one
    /// commit that empties each entity's table in one step (and that a store may persist as one
    /// small record per entity): no row is visited unless it holds relationships.
    ///
    /// - Returns: The deleted IDs of `infos`, entity by entity in key order (kept as key runs,
    ///   made into IDs only when read), and the commit's notification (`nil` if the entities were
    ///   empty).
    /// - Throws: as ``batchDelete(_:origin:)``; in every case nothing changed.
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
            }, alwaysNotifies: true, readsWholeStore: true)
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
    ///
    /// With inheritance, `members` are the entity and its sub-entities, each with the predicate
    /// compiled for it (an inherited attribute has the same slot in each).
    func batchUpdate(
        _ members: [(info: EntityInfo, predicate: CompiledPredicate?)], values: [(slot: Int, value: StoreValue)],
        origin: ContextIdentifier
    ) throws -> (ids: [ObjectID], notification: SaveNotification?) {
        var changed: [ObjectID] = []
        let (_, notification) = try commit(
            preparing: { snapshot in
                changed = []
                var commit = Commit(policy: .error, origin: origin)
                for (member, predicate) in members {
                    let table = snapshot.tables[member.index]
                    for key in Self.matches(member, predicate, in: snapshot) {
                        guard let row = table[key] else { continue }
                        var updated = row.values
                        for (slot, value) in values { updated[slot] = value }
                        guard updated != row.values else { continue }
                        commit.updated.append(
                            Commit.Write(
                                entityIndex: member.index, key: key, values: updated, expectedVersion: row.version,
                                original: row.values))
                        changed.append(ObjectID(entityName: member.name, key: key))
                    }
                }
                return commit.updated.isEmpty ? nil : commit
            }, alwaysNotifies: true, readsWholeStore: true)
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
