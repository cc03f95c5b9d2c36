extension CommitPlan {
    /// Empties the entity at `entityIndex` in the next state, in one step: its table and
    /// everything derived from its rows. This is the one place that knows what must go with the
    /// rows: the uniqueness indexes (the table empties its own attribute indexes).
    ///
    /// - Complexity: O(1) for the table; the old rows are released with the previous state.
    mutating func emptyEntity(_ entityIndex: Int) {
        next.tables[entityIndex].removeAll()
        let info = model.infos[entityIndex]
        let constraints = info.description.uniquenessConstraints
        if !constraints.isEmpty {
            uniqueIndexes[entityIndex] = constraints.map { names in
                UniqueIndex(slots: names.compactMap { info.slotByName[$0] })
            }
        }
    }

    /// Empties the commit's `emptied` entities, first of its writes, and records the IDs of the
    /// objects they held (for the store's change set and the save notification).
    ///
    /// - Complexity: O(*n*) for *n* objects of the emptied entities: one ID each, no row visited.
    mutating func applyEmptied() {
        guard !emptied.isEmpty else { return }
        var ids: [ObjectID] = []
        ids.reserveCapacity(emptied.reduce(0) { $0 + current.tables[$1].count })
        for entityIndex in emptied {
            let name = model.infos[entityIndex].name
            current.tables[entityIndex].forEachKey { ids.append(ObjectID(entityName: name, key: $0)) }
            emptyEntity(entityIndex)
        }
        emptiedObjectIDs = ids
    }

    /// The emptied entities and their objects, for the save notification.
    var emptiedEntities: EmptiedEntities? {
        guard !emptied.isEmpty else { return nil }
        return EmptiedEntities(
            entityNames: Set(emptied.map { model.infos[$0].name }), objectIDs: emptiedObjectIDs)
    }
}
