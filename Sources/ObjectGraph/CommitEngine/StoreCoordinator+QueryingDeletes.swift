extension StoreCoordinator {
    /// The keys of the committed objects of `member` that its predicate matches, in key order,
    /// selected by a querying store's SQL, with their rows added to `rows`. When the SQL only
    /// narrows them (or `expression` is `nil`: a predicate only the engine evaluates), the
    /// engine decides over the narrowed rows, reading the related rows a key path reaches. Call
    /// it holding the commit lock.
    ///
    /// - Throws: The store's errors, typed.
    func selectDeleted(
        _ member: (info: EntityInfo, predicate: CompiledPredicate?), expression: PredicateExpression?,
        into rows: inout StoreSnapshot, from querying: any QueryingStore
    ) throws -> [Int64] {
        let layout = try querying.layout()
        var isExact = false
        let keys = try querying.withDatabase { database -> [Int64] in
            let translation = SQLFetchTranslation(
                predicate: expression, sort: [], entity: member.info, schema: layout, dialect: database.dialect)
            isExact = member.predicate == nil || (expression != nil && translation.isExact)
            var keys: [Int64] = []
            try database.forEachRow(translation.selectKeys(limit: nil, offset: 0), translation.bindings) { row in
                if let key = try SQLStoreSchema.selectedKey(row.column(0)) { keys.append(key) }
            }
            return keys.sorted()
        }
        try read([member.info.index: keys], into: &rows, from: querying)
        guard !isExact, let predicate = member.predicate else { return keys }
        // The engine decides; a key path reads the rows it reaches (errors kept for after).
        var local = rows
        var failure: (any Error)?
        let model = self.model
        let resolver = PredicateResolver { id in
            guard let target = model.info(named: id.entityName) else { return nil }
            if let row = local.tables[target.index][id.key] { return row.values }
            do {
                try self.read([target.index: [id.key]], into: &local, from: querying)
            } catch {
                failure = failure ?? error
            }
            return local.tables[target.index][id.key]?.values
        }
        var matching: [Int64] = []
        for key in keys {
            guard let row = local.tables[member.info.index][key] else { continue }
            let id = predicate.needsObjectID ? ObjectID(entityName: member.info.name, key: key) : nil
            if predicate.matches(row.values, objectID: id, resolver: resolver) { matching.append(key) }
        }
        if let failure { throw failure }
        rows = local
        return matching
    }

    /// Adds to `rows` every committed row the delete rules need when the objects of `deleting`
    /// (keys by entity index) and every object of the entities `emptying` are deleted: the rows
    /// of the deleted objects and of everything their `cascade` rules reach, and the targets of
    /// their `nullify` and `deny` rules, read from a querying store level by level. For an
    /// emptied entity, the targets are found in SQL from the other side (the rows whose inverse
    /// refers to it), or its rows that hold a rule-bearing relationship without an inverse. Call
    /// it holding the commit lock.
    ///
    /// - Throws: The store's errors, typed.
    /// - Complexity: O(*d* + *t*) rows for *d* deleted objects and *t* targets of their rules, in
    ///   one round of statements per level of cascade.
    func readDeleteRuleRows(
        deleting: [Int: [Int64]], emptying: [Int], into rows: inout StoreSnapshot, from querying: any QueryingStore
    ) throws {
        var followed: [Int: Set<Int64>] = [:]
        var frontier: [Int: [Int64]] = [:]
        var leaves: [Int: [Int64]] = [:]
        func reach(_ target: ObjectID, through relationship: EntityInfo.ResolvedRelationship) {
            let index = model.entityIndex(of: target, heldBy: relationship)
            guard !emptying.contains(index) else { return }
            if relationship.description.deleteRule == .cascade {
                if followed[index, default: []].insert(target.key).inserted {
                    frontier[index, default: []].append(target.key)
                }
            } else {
                leaves[index, default: []].append(target.key)
            }
        }
        for (index, keys) in deleting {
            for key in keys where followed[index, default: []].insert(key).inserted {
                frontier[index, default: []].append(key)
            }
        }
        try readEmptiedTargets(emptying, into: &rows, from: querying, reach: reach)
        while !frontier.isEmpty || !leaves.isEmpty {
            let level = frontier
            frontier = [:]
            try read(level.merging(leaves, uniquingKeysWith: +), into: &rows, from: querying)
            leaves = [:]
            for (index, keys) in level {
                let info = model.infos[index]
                for (offset, relationship) in info.relationships.enumerated() where Self.bearsRule(relationship) {
                    let slot = info.attributeCount + offset
                    for key in keys {
                        guard let row = rows.tables[index][key] else { continue }
                        for target in Self.targets(row.values[slot]) { reach(target, through: relationship) }
                    }
                }
            }
        }
    }

    /// Finds the targets of the rules of the relationships of the entities `emptying` (every
    /// object of which is deleted) in SQL, reads the rows that hold them, and hands each target
    /// to `reach`.
    private func readEmptiedTargets(
        _ emptying: [Int], into rows: inout StoreSnapshot, from querying: any QueryingStore,
        reach: (ObjectID, EntityInfo.ResolvedRelationship) -> Void
    ) throws {
        guard !emptying.isEmpty else { return }
        let layout = try querying.layout()
        // (entity index, keys, the relationship's holder: the target side or the emptied side)
        var found: [(entityIndex: Int, keys: [Int64], relationship: EntityInfo.ResolvedRelationship, slot: Int?)] = []
        try querying.withDatabase { database in
            for entityIndex in emptying {
                let info = model.infos[entityIndex]
                for (offset, relationship) in info.relationships.enumerated() where Self.bearsRule(relationship) {
                    let destination = model.infos[relationship.destinationIndex]
                    guard let inverseSlot = relationship.inverseSlot else {
                        // Without an inverse: the emptied rows that hold the relationship.
                        let slot = info.attributeCount + offset
                        let keys = try layout.keys(entityIndex: entityIndex, referringThrough: slot, to: nil, database)
                        found.append((entityIndex, keys, relationship, slot))
                        continue
                    }
                    // With one: the destination rows whose inverse refers to the emptied entity.
                    for target in destination.familyIndexes where !emptying.contains(target) {
                        let slot = destination.slot(inverseSlot, in: model.infos[target])
                        let keys = try layout.keys(entityIndex: target, referringThrough: slot, to: nil, database)
                        found.append((target, keys, relationship, nil))
                    }
                }
            }
        }
        try read(
            Dictionary(found.map { ($0.entityIndex, $0.keys) }, uniquingKeysWith: +), into: &rows, from: querying)
        for (entityIndex, keys, relationship, slot) in found {
            let name = model.infos[entityIndex].name
            for key in keys {
                if let slot {
                    guard let row = rows.tables[entityIndex][key] else { continue }
                    for target in Self.targets(row.values[slot]) { reach(target, relationship) }
                } else {
                    reach(ObjectID(entityName: name, key: key), relationship)
                }
            }
        }
    }

    /// Reads the rows of `keys` (by entity index) that `rows` lacks into it, through the cache.
    private func read(_ keys: [Int: [Int64]], into rows: inout StoreSnapshot, from querying: any QueryingStore) throws {
        var missing: [Int: [Int64]] = [:]
        for (index, keys) in keys {
            var seen: Set<Int64> = []
            let lacking = keys.filter { rows.tables[index][$0] == nil && seen.insert($0).inserted }
            if !lacking.isEmpty { missing[index] = lacking }
        }
        guard !missing.isEmpty else { return }
        let holding = try loadRows(missing, from: querying)
        for (index, keys) in missing {
            for key in keys {
                if let row = holding.tables[index][key] { rows.tables[index].set(row, forKey: key) }
            }
        }
    }

    /// Whether deleting an object does something through `relationship`: `cascade`, `deny`, or
    /// `nullify` with an inverse to empty.
    private static func bearsRule(_ relationship: EntityInfo.ResolvedRelationship) -> Bool {
        switch relationship.description.deleteRule {
        case .cascade, .deny: true
        case .nullify: relationship.inverseSlot != nil
        case .noAction: false
        }
    }

    private static func targets(_ value: StoreValue) -> [ObjectID] {
        switch value {
        case .object(let id): [id]
        case .objects(let ids): ids
        default: []
        }
    }
}
