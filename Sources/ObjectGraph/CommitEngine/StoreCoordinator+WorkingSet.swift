extension StoreCoordinator {
    /// Reads into the cache every committed row that planning `commit` looks at, from a querying
    /// store: the written objects' rows (read again, for their current versions), the objects
    /// their relationships refer to (before and after), the stored objects that share a
    /// uniqueness constraint's values with a written one, and the rows that refer to a deleted
    /// object through a relationship whose delete rule the context does not apply. Call it
    /// holding the commit lock.
    ///
    /// - Returns: The committed state holding those rows.
    func loadWorkingSet(of commit: Commit, from querying: any QueryingStore) throws -> StoreSnapshot {
        var refreshing: [Int: [Int64]] = [:]
        var wanted: [Int: [Int64]] = [:]
        for write in commit.updated + commit.deleted { refreshing[write.entityIndex, default: []].append(write.key) }
        func want(_ value: StoreValue) {
            switch value {
            case .object(let id): want(id)
            case .objects(let ids): for id in ids { want(id) }
            default: break
            }
        }
        func want(_ id: ObjectID) {
            if let info = model.info(named: id.entityName) { wanted[info.index, default: []].append(id.key) }
        }
        for write in Array(commit.inserted) + commit.updated + commit.deleted {
            let info = model.infos[write.entityIndex]
            for slot in info.attributeCount..<info.propertyCount {
                want(write.values[slot])
                if let original = write.original { want(original[slot]) }
            }
        }
        let layout = try querying.layout()
        try querying.withDatabase { database in
            for write in Array(commit.inserted) + commit.updated {
                let info = model.infos[write.entityIndex]
                for constraint in info.description.uniquenessConstraints where !constraint.isEmpty {
                    let slots = constraint.compactMap { info.slotByName[$0] }
                    let values = slots.map { write.values[$0] }
                    guard slots.count == constraint.count, !values.contains(.null) else { continue }
                    wanted[info.index, default: []] += try uniquenessCandidates(
                        of: info, slots: slots, values: values, layout: layout, database: database)
                }
            }
            try loadReferrers(of: commit, layout: layout, database: database, into: &wanted)
        }
        return try loadRows(wanted, refreshing: refreshing, from: querying)
    }

    /// Adds to `wanted` the rows that refer to an object `commit` deletes (or to any object of an
    /// entity it empties) through a relationship without an inverse, or whose inverse's delete
    /// rule is `noAction`: the rows the commit plan cleans (`clearReferencesToDeletedObjects`).
    private func loadReferrers(
        of commit: Commit, layout: SQLStoreSchema, database: any SQLDatabase, into wanted: inout [Int: [Int64]]
    ) throws {
        guard !commit.deleted.isEmpty || !commit.emptied.isEmpty else { return }
        var deleted: [Int: [Int64]] = [:]
        for write in commit.deleted { deleted[write.entityIndex, default: []].append(write.key) }
        for info in model.infos {
            for (offset, relationship) in info.relationships.enumerated() {
                let destinations = model.infos[relationship.destinationIndex].familyIndexes
                guard destinations.contains(where: { commit.emptied.contains($0) || deleted[$0] != nil }) else {
                    continue
                }
                if let inverseSlot = relationship.inverseSlot {
                    let inverse = model.infos[relationship.destinationIndex].relationship(at: inverseSlot).description
                    guard inverse.deleteRule == .noAction else { continue }
                }
                let slot = info.attributeCount + offset
                let targets: [Int64]? =
                    destinations.contains(where: commit.emptied.contains)
                    ? nil : destinations.flatMap { deleted[$0] ?? [] }
                wanted[info.index, default: []] += try layout.keys(
                    entityIndex: info.index, referringThrough: slot, to: targets, database)
            }
        }
    }
}
