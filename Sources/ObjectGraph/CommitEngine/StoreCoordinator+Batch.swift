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
    ///
    /// `narrowing`: the predicate's expression, for a querying store to select the matches in
    /// SQL (the engine deciding over the rows SQL narrowed when it cannot say exactly); `nil`
    /// for a predicate only the engine evaluates. A querying store then reads only the matched
    /// rows and those the delete rules reach, never whole tables.
    func batchDelete(
        _ members: [(info: EntityInfo, predicate: CompiledPredicate?)], origin: ContextIdentifier,
        narrowing: PredicateExpression? = nil
    ) throws -> (ids: DeletedObjectIDs, notification: SaveNotification?) {
        guard members.contains(where: { $0.predicate != nil }) else {
            return try batchDeleteAll(members.map(\.info), origin: origin)
        }
        var matched: [ObjectID] = []
        let (_, notification) = try commit(
            preparing: { snapshot in
                matched = []
                var selected: [(index: Int, keys: [Int64])] = []
                var rows = snapshot
                for (member, predicate) in members {
                    let keys =
                        try querying.map {
                            try selectDeleted((member, predicate), expression: narrowing, into: &rows, from: $0)
                        } ?? Self.matches(member, predicate, in: snapshot)
                    guard !keys.isEmpty else { continue }
                    matched += keys.map { ObjectID(entityName: member.name, key: $0) }
                    selected.append((member.index, keys))
                }
                guard !matched.isEmpty else { return nil }
                if let querying {
                    try readDeleteRuleRows(
                        deleting: Dictionary(selected.map { ($0.index, $0.keys) }, uniquingKeysWith: +), emptying: [],
                        into: &rows, from: querying)
                }
                var plan = BatchDeletePlan(model: model, snapshot: rows)
                for (index, keys) in selected { try plan.delete(keys, of: index) }
                return try plan.commit(origin: origin)
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
    /// - Throws: as ``batchDelete(_:origin:)``; in every case nothing changed.
    func batchDeleteAll(_ infos: [EntityInfo], origin: ContextIdentifier) throws -> (
        ids: DeletedObjectIDs, notification: SaveNotification?
    ) {
        var isEmpty = true
        // A querying store lists the emptied entities' keys instead of reading their rows, and
        // reads only the rows their delete rules need.
        let (_, notification) = try commit(
            preparing: { snapshot in
                let keyRuns = querying != nil ? try storedKeyRuns(of: infos.map(\.index)) : nil
                let indexes = infos.map(\.index).filter { index in
                    keyRuns.map { runs in runs[index]?.isEmpty == false } ?? (snapshot.tables[index].count > 0)
                }
                guard !indexes.isEmpty else { return nil }
                isEmpty = false
                var rows = snapshot
                if let querying {
                    try readDeleteRuleRows(deleting: [:], emptying: indexes, into: &rows, from: querying)
                }
                var plan = BatchDeletePlan(model: model, snapshot: rows)
                try plan.deleteAll(of: indexes)
                var commit = try plan.commit(origin: origin)
                commit.emptiedKeyRuns = keyRuns
                return commit
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
    ///
    /// With inheritance, `members` are the entity and its sub-entities, each with the predicate
    /// compiled for it (an inherited attribute has the same slot in each).
    ///
    /// `narrowing`: the predicate's expression (`.some(nil)` for none), for a querying store to
    /// select the matches in SQL rather than reading every row; `nil` when it cannot.
    func batchUpdate(
        _ members: [(info: EntityInfo, predicate: CompiledPredicate?)], values: [(slot: Int, value: StoreValue)],
        origin: ContextIdentifier, narrowing: PredicateExpression?? = nil
    ) throws -> (ids: [ObjectID], notification: SaveNotification?) {
        var changed: [ObjectID] = []
        let selects = members.count == 1 && narrowing != nil && (try? canSelect(members[0], narrowing ?? nil)) == true
        let (_, notification) = try commit(
            preparing: { snapshot in
                changed = []
                var commit = Commit(policy: .error, origin: origin)
                for (member, predicate) in members {
                    var snapshot = snapshot
                    let keys: [Int64]
                    if selects, let querying {
                        (keys, snapshot) = try selectHoldingLock((member, predicate), narrowing ?? nil, from: querying)
                    } else {
                        keys = Self.matches(member, predicate, in: snapshot)
                    }
                    let table = snapshot.tables[member.index]
                    for key in keys {
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
            }, alwaysNotifies: true, readsWholeStore: !selects)
        return (changed, changed.isEmpty ? nil : notification)
    }

    /// The keys of the stored objects of each entity (by index) of a querying store, as runs of
    /// consecutive keys in key order, read without their rows.
    private func storedKeyRuns(of entityIndexes: [Int]) throws -> [Int: [Range<Int64>]] {
        guard let querying else { return [:] }
        let layout = try querying.layout()
        return try querying.withDatabase { database in
            var runs: [Int: [Range<Int64>]] = [:]
            for entityIndex in entityIndexes {
                let key = database.dialect.quote(SQLStoreSchema.keyColumn)
                var entityRuns: [Range<Int64>] = []
                try database.forEachRow(
                    "SELECT \(key) FROM \(database.dialect.quote(layout.tables[entityIndex].name)) ORDER BY \(key)"
                ) { row in
                    guard let next = try SQLStoreSchema.selectedKey(row.column(0)) else { return }
                    if let last = entityRuns.last, last.upperBound == next {
                        entityRuns[entityRuns.count - 1] = last.lowerBound..<(next + 1)
                    } else {
                        entityRuns.append(next..<(next + 1))
                    }
                }
                runs[entityIndex] = entityRuns
            }
            return runs
        }
    }

    /// Whether a querying store selects the objects `expression` matches with its SQL alone, or
    /// narrows them to rows the predicate can be checked on without reading related objects.
    private func canSelect(
        _ member: (info: EntityInfo, predicate: CompiledPredicate?), _ expression: PredicateExpression?
    ) throws -> Bool {
        guard let querying else { return false }
        guard let expression else { return true }
        if member.predicate?.isRowLocal == true { return true }
        let layout = try querying.layout()
        return try querying.withDatabase { database in
            SQLFetchTranslation(
                predicate: expression, sort: [], entity: member.info, schema: layout, dialect: database.dialect
            ).isExact
        }
    }

    /// The keys of the committed objects of `member` that its predicate matches, in key order,
    /// selected by a querying store's SQL (checked in memory when the SQL only narrows them), and
    /// the committed state holding their rows. Call it holding the commit lock.
    private func selectHoldingLock(
        _ member: (info: EntityInfo, predicate: CompiledPredicate?), _ expression: PredicateExpression?,
        from querying: any QueryingStore
    ) throws -> ([Int64], StoreSnapshot) {
        let layout = try querying.layout()
        var isExact = false
        let (query, bindings) = try querying.withDatabase { database -> (String, [SQLValue]) in
            let translation = SQLFetchTranslation(
                predicate: expression, sort: [], entity: member.info, schema: layout, dialect: database.dialect)
            isExact = translation.isExact
            let columns = layout.rowColumns(
                entityIndex: member.info.index, alias: SQLFetchTranslation.alias, database.dialect)
            return (translation.select(columns, limit: nil, offset: 0), translation.bindings)
        }
        // The keys and their rows in one query (one read transaction), in key order.
        let rows = try querying.rows(entityIndex: member.info.index, query: query, bindings: bindings)
        let keys = rows.map(\.key)
        let snapshot = cache([member.info.index: rows])
        guard !isExact, let predicate = member.predicate else { return (keys, snapshot) }
        let table = snapshot.tables[member.info.index]
        let matching = keys.filter { key in
            guard let row = table[key] else { return false }
            let id = predicate.needsObjectID ? ObjectID(entityName: member.info.name, key: key) : nil
            return predicate.matches(row.values, objectID: id, resolver: PredicateResolver { _ in nil })
        }
        return (matching, snapshot)
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
