extension CommitPlan {
    /// The keys of every object this commit writes.
    var writtenKeys: [(entityIndex: Int, key: Int64)] {
        (inserts + updates).map { ($0.entityIndex, merged[$0.entityIndex]?[$0.key] ?? $0.key) } + mergeTargets
    }

    /// Rewrites references to inserted objects that were merged into others.
    mutating func remapMergedReferences() {
        guard !merged.isEmpty else { return }
        for (entityIndex, key) in writtenKeys {
            let info = model.infos[entityIndex]
            guard var row = next.tables[entityIndex][key] else { continue }
            var changed = false
            for (offset, relationship) in info.relationships.enumerated() {
                guard let map = merged[relationship.destinationIndex] else { continue }
                let slot = info.attributeCount + offset
                switch row.values[slot] {
                case .object(let id):
                    if let target = map[id.key] {
                        row.values[slot] = .object(ObjectID(entityName: id.entityName, key: target))
                        changed = true
                    }
                case .objects(let ids) where ids.contains(where: { map[$0.key] != nil }):
                    var remapped: [ObjectID] = []
                    for id in ids {
                        let target = ObjectID(entityName: id.entityName, key: map[id.key] ?? id.key)
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

    /// A conflict for every relationship target that a write adds and the resulting state does
    /// not hold (deleted elsewhere since this context read it). Targets the stored row already
    /// had are not checked: a relationship without an inverse may legitimately outlive them.
    func checkReferences() throws {
        var conflicts: [PersistenceError] = []
        for (entityIndex, key) in writtenKeys {
            let info = model.infos[entityIndex]
            guard let row = next.tables[entityIndex][key] else { continue }
            let stored = current.tables[entityIndex][key]
            for (offset, relationship) in info.relationships.enumerated() {
                let slot = info.attributeCount + offset
                let targets: [ObjectID]
                switch row.values[slot] {
                case .object(let id): targets = [id]
                case .objects(let ids): targets = ids
                default: continue
                }
                let table = next.tables[relationship.destinationIndex]
                for target in targets
                where table[target.key] == nil && !(stored?.values[slot].refers(to: target) ?? false) {
                    conflicts.append(
                        .danglingReference(id(entityIndex, key), key: relationship.description.name, target: target))
                }
            }
        }
        guard conflicts.isEmpty else { throw PersistenceError.conflicts(conflicts) }
    }
}
