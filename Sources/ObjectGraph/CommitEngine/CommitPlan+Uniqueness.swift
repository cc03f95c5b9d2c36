extension CommitPlan {
    /// Checks every written object of a constrained entity against the others. An inserted
    /// duplicate is merged into the existing object by the merge policy (or is a conflict under
    /// `.error`); an updated object that collides is always a conflict.
    mutating func enforceUniqueness() throws {
        let constrained = model.infos.filter { !$0.description.uniquenessConstraints.isEmpty }.map(\.index)
        guard !constrained.isEmpty else { return }
        var conflicts: [PersistenceError] = []
        let touched = Set(inserts.lazy.map(\.entityIndex)).union((updates + deletes).map(\.entityIndex))
            .intersection(constrained)
        for entityIndex in touched.sorted() {
            let info = model.infos[entityIndex]
            guard !info.description.uniquenessConstraints.isEmpty else { continue }
            var indexes = uniqueIndexes[entityIndex] ?? buildIndexes(for: info)
            let old = current.tables[entityIndex]
            for write in (deletes + updates) where write.entityIndex == entityIndex {
                guard let row = old[write.key] else { continue }
                for position in indexes.indices { indexes[position].remove(write.key, values: row.values) }
            }
            for write in updates where write.entityIndex == entityIndex {
                guard let row = next.tables[entityIndex][write.key] else { continue }
                if let other = indexes.lazy.compactMap({ $0.other(than: write.key, with: row.values) }).first {
                    conflicts.append(.uniquenessViolation(id(entityIndex, write.key), existing: id(entityIndex, other)))
                    continue
                }
                for position in indexes.indices { indexes[position].add(write.key, values: row.values) }
            }
            for write in inserts where write.entityIndex == entityIndex {
                guard let row = next.tables[entityIndex][write.key] else { continue }
                guard let other = indexes.lazy.compactMap({ $0.other(than: write.key, with: row.values) }).first else {
                    for position in indexes.indices { indexes[position].add(write.key, values: row.values) }
                    continue
                }
                guard policy != .error else {
                    conflicts.append(.uniquenessViolation(id(entityIndex, write.key), existing: id(entityIndex, other)))
                    continue
                }
                let target = merge(write.key, into: other, of: info)
                // The merged values may now collide, on another constraint, with a third object.
                for position in indexes.indices { indexes[position].remove(other, values: target.before) }
                if let clash = indexes.lazy.compactMap({ $0.other(than: other, with: target.after) }).first {
                    conflicts.append(.uniquenessViolation(id(entityIndex, other), existing: id(entityIndex, clash)))
                    continue
                }
                for position in indexes.indices {
                    indexes[position].remove(other, values: target.before)
                    indexes[position].add(other, values: target.after)
                }
            }
            uniqueIndexes[entityIndex] = indexes
        }
        guard conflicts.isEmpty else { throw PersistenceError.conflicts(conflicts) }
    }

    private func buildIndexes(for info: EntityInfo) -> [UniqueIndex] {
        var indexes = info.description.uniquenessConstraints.map { names in
            UniqueIndex(slots: names.compactMap { info.slotByName[$0] })
        }
        current.tables[info.index].forEach { key, row in
            for position in indexes.indices { indexes[position].add(key, values: row.values) }
        }
        return indexes
    }

    /// Merges the inserted object `key` into the object `target`: attributes by the policy
    /// (this context's values when it wins, the existing ones otherwise), to-many relationships
    /// united, to-one relationships kept unless empty. The inserted object's row goes away and
    /// references to it are rewritten to `target` later.
    private mutating func merge(_ key: Int64, into target: Int64, of info: EntityInfo) -> (
        before: [StoreValue], after: [StoreValue]
    ) {
        let table = next.tables[info.index]
        let incoming = table[key]!.values
        let existing = table[target]!
        var values = existing.values
        for slot in values.indices {
            if info.isAttribute(slot) {
                if policy.objectWins { values[slot] = incoming[slot] }
                continue
            }
            switch (values[slot], incoming[slot]) {
            case (.objects(let mine), .objects(let theirs)):
                var ids = mine
                for id in theirs where !ids.contains(id) { ids.append(id) }
                if !info.relationship(at: slot).description.isOrdered { ids.sort { $0.key < $1.key } }
                values[slot] = .objects(ids)
            case (.null, let value), (let value, .null):
                values[slot] = value
            default:
                if policy.objectWins { values[slot] = incoming[slot] }
            }
        }
        let wasStored = current.tables[info.index][target] != nil
        let version = existing.version + (wasStored && !isWritten(info.index, target) ? 1 : 0)
        next.tables[info.index].set(nil, forKey: key)
        next.tables[info.index].set(.init(version: version, values: values), forKey: target)
        merged[info.index, default: [:]][key] = target
        if wasStored && !isWritten(info.index, target) { mergeTargets.append((info.index, target)) }
        return (existing.values, values)
    }

    func isWritten(_ entityIndex: Int, _ key: Int64) -> Bool {
        updates.contains { $0.entityIndex == entityIndex && $0.key == key }
            || mergeTargets.contains { $0.entityIndex == entityIndex && $0.key == key }
    }
}
