extension CommitPlan {
    /// The keys of every object this commit writes.
    var writtenKeys: [(entityIndex: Int, key: Int64)] {
        var keys: [(entityIndex: Int, key: Int64)] = []
        keys.reserveCapacity(inserts.count + updates.count + mergeTargets.count)
        for write in inserts { keys.append((write.entityIndex, mergeTarget(of: write) ?? write.key)) }
        for write in updates { keys.append((write.entityIndex, mergeTarget(of: write) ?? write.key)) }
        keys.append(contentsOf: mergeTargets)
        return keys
    }

    /// Rewrites references to inserted objects that were merged into others.
    mutating func remapMergedReferences() {
        guard !merged.isEmpty else { return }
        for (entityIndex, key) in writtenKeys {
            let info = model.infos[entityIndex]
            guard var row = next.tables[entityIndex][key] else { continue }
            var changed = false
            for (offset, relationship) in info.relationships.enumerated() {
                // With inheritance, the targets may be in the destination's sub-entities' tables.
                let destinations = model.infos[relationship.destinationIndex].familyIndexes
                guard destinations.contains(where: { merged[$0] != nil }) else { continue }
                func mergedKey(_ id: ObjectID) -> Int64? {
                    merged[model.entityIndex(of: id, heldBy: relationship)]?[id.key]
                }
                let slot = info.attributeCount + offset
                switch row.values[slot] {
                case .object(let id):
                    if let target = mergedKey(id) {
                        row.values[slot] = .object(ObjectID(entityName: id.entityName, key: target))
                        changed = true
                    }
                case .objects(let ids) where ids.contains(where: { mergedKey($0) != nil }):
                    var remapped: [ObjectID] = []
                    for id in ids {
                        let target = ObjectID(entityName: id.entityName, key: mergedKey(id) ?? id.key)
                        if !remapped.contains(target) { remapped.append(target) }
                    }
                    if !relationship.description.isOrdered { remapped.sort { $0.key < $1.key } }
                    row.values[slot] = .objects(remapped)
                    changed = true
                default:
                    break
                }
            }
            if changed { next.tables[entityIndex].set(row, forKey: key) }
        }
    }

    /// Drops from each updated record the references this context read that point at objects
    /// deleted since (by another context): that delete already removed them from the store.
    mutating func dropReferencesDeletedElsewhere() {
        for write in updates {
            let info = model.infos[write.entityIndex]
            // A write without references keeps none (a nullify's), so it has none to drop.
            let holdsReferences = info.relationships.indices.contains { offset in
                switch write.values[info.attributeCount + offset] {
                case .object: true
                case .objects(let ids): !ids.isEmpty
                default: false
                }
            }
            guard holdsReferences, let original = write.original,
                var row = next.tables[write.entityIndex][write.key]
            else { continue }
            var changed = false
            for (offset, relationship) in info.relationships.enumerated() {
                let slot = info.attributeCount + offset
                // No reference, nothing gone (a relationship the context cleared, as a nullify does).
                switch row.values[slot] {
                case .object: break
                case .objects(let ids) where !ids.isEmpty: break
                default: continue
                }
                let table = next.tables[relationship.destinationIndex]
                func gone(_ id: ObjectID) -> Bool {
                    let index = model.entityIndex(of: id, heldBy: relationship)
                    let exists =
                        index == relationship.destinationIndex
                        ? table[id.key] != nil : next.tables[index][id.key] != nil
                    return !exists && original[slot].refers(to: id)
                }
                switch row.values[slot] {
                case .object(let id) where gone(id):
                    row.values[slot] = .null
                    changed = true
                case .objects(let ids) where ids.contains(where: gone):
                    row.values[slot] = .objects(ids.filter { !gone($0) })
                    changed = true
                default:
                    break
                }
            }
            if changed { next.tables[write.entityIndex].set(row, forKey: write.key) }
        }
    }

    /// A conflict for every relationship target that a write adds and the resulting state does
    /// not hold (deleted elsewhere since this context read it). Targets the stored row already
    /// had are not checked: a relationship without an inverse may legitimately outlive them.
    func checkReferences() throws {
        // Only objects with relationships hold references: a commit that writes none checks nothing.
        func holdsReferences(_ write: Write) -> Bool { !model.infos[write.entityIndex].relationships.isEmpty }
        guard
            inserts.contains(where: holdsReferences) || updates.contains(where: holdsReferences)
                || mergeTargets.contains(where: { !model.infos[$0.entityIndex].relationships.isEmpty })
        else { return }
        var conflicts: [PersistenceError] = []
        // The written keys are visited where they lie (not gathered as `writtenKeys` does): a
        // save of many inserts makes no list of them.
        for write in inserts { checkReferences(of: write.entityIndex, mergeTarget(of: write) ?? write.key, &conflicts) }
        for write in updates { checkReferences(of: write.entityIndex, mergeTarget(of: write) ?? write.key, &conflicts) }
        for target in mergeTargets { checkReferences(of: target.entityIndex, target.key, &conflicts) }
        guard conflicts.isEmpty else { throw PersistenceError.conflicts(conflicts) }
    }

    /// Appends to `conflicts` the dangling references that the write of `key` adds.
    private func checkReferences(of entityIndex: Int, _ key: Int64, _ conflicts: inout [PersistenceError]) {
        let info = model.infos[entityIndex]
        guard !info.relationships.isEmpty, let row = next.tables[entityIndex][key] else { return }
        // Relationships are read by index, so that no description is copied per object.
        for offset in info.relationships.indices {
            let slot = info.attributeCount + offset
            let relationship = info.relationships[offset]
            func check(_ target: ObjectID) {
                guard !next.tables[model.entityIndex(of: target, heldBy: relationship)].contains(target.key),
                    current.tables[entityIndex][key]?.values[slot].refers(to: target) != true
                else { return }
                conflicts.append(
                    .danglingReference(
                        id(entityIndex, key), key: info.relationships[offset].description.name, target: target))
            }
            switch row.values[slot] {
            case .object(let target): check(target)
            case .objects(let targets): for target in targets { check(target) }
            default: continue
            }
        }
    }
}

extension CommitPlan {
    /// Removes references to the objects this commit deletes from every stored record whose
    /// relationship the context's delete rules do not clean up: a relationship without an
    /// inverse, or one whose inverse has the `noAction` rule. Without this, the store would hold a
    /// reference to an object it no longer has, and refuse to open. The cleaned records are
    /// written with the commit (and their registered objects refreshed).
    mutating func clearReferencesToDeletedObjects() {
        guard !deletes.isEmpty || !emptied.isEmpty else { return }
        let deletedEntities = Set(deletes.map(\.entityIndex))
        // The deleted keys by entity, gathered only if a relationship needs cleaning.
        var deletedKeys: [Int: Set<Int64>]?
        for info in model.infos {
            for (offset, relationship) in info.relationships.enumerated() {
                // An emptied entity lost every object: every reference to it goes. With
                // inheritance, the targets may be objects of the destination's sub-entities.
                let destinations = model.infos[relationship.destinationIndex].familyIndexes
                guard destinations.contains(where: { emptied.contains($0) || deletedEntities.contains($0) }) else {
                    continue
                }
                if let inverseSlot = relationship.inverseSlot {
                    let inverse = model.infos[relationship.destinationIndex].relationship(at: inverseSlot).description
                    guard inverse.deleteRule == .noAction else { continue }
                }
                if deletedKeys == nil {
                    var keys: [Int: Set<Int64>] = [:]
                    for write in deletes { keys[write.entityIndex, default: []].insert(write.key) }
                    deletedKeys = keys
                }
                let isEmptied = emptied.contains(relationship.destinationIndex)
                let keys = deletedKeys?[relationship.destinationIndex] ?? []
                let allDeletedKeys = destinations.count > 1 ? deletedKeys ?? [:] : [:]
                func gone(_ id: ObjectID) -> Bool {
                    guard destinations.count > 1 else { return isEmptied || keys.contains(id.key) }
                    let index = model.entityIndex(of: id, heldBy: relationship)
                    return emptied.contains(index) || allDeletedKeys[index]?.contains(id.key) == true
                }
                let slot = info.attributeCount + offset
                var cleaned: [(Int64, EntityTable.Row)] = []
                next.tables[info.index].forEach { key, row in
                    var row = row
                    switch row.values[slot] {
                    case .object(let id) where gone(id):
                        row.values[slot] = .null
                    case .objects(let ids) where ids.contains(where: gone):
                        row.values[slot] = .objects(ids.filter { !gone($0) })
                    default:
                        return
                    }
                    cleaned.append((key, row))
                }
                // The version stays: this is a consequence of the delete, not an edit, and contexts
                // holding the record drop the same reference when they next write it.
                for (key, row) in cleaned {
                    if !isWritten(info.index, key)
                        && !inserts.contains(where: { $0.entityIndex == info.index && $0.key == key })
                    {
                        mergeTargets.append((info.index, key))
                    }
                    next.tables[info.index].set(row, forKey: key)
                }
            }
        }
    }
}
