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

    /// Empties the commit's `emptied` entities, first of its writes, and records the keys of the
    /// objects they held (for the store's change set and the save notification) as runs of
    /// consecutive keys.
    ///
    /// - Complexity: O(*c*) for *c* chunks of the emptied tables when their chunks are full (a
    ///   table filled by inserts), O(*n*) for *n* objects otherwise; no row is visited and no ID
    ///   is made.
    mutating func applyEmptied() {
        guard !emptied.isEmpty else { return }
        var runs: [EmptiedEntities.KeyRun] = []
        for entityIndex in emptied {
            let name = model.infos[entityIndex].name
            if let keyRuns = emptiedKeyRuns?[entityIndex] {
                runs += keyRuns.map { EmptiedEntities.KeyRun(entityName: name, keys: $0) }
            } else {
                current.tables[entityIndex].forEachKeyRun {
                    runs.append(EmptiedEntities.KeyRun(entityName: name, keys: $0))
                }
            }
            emptyEntity(entityIndex)
        }
        emptiedEntities = EmptiedEntities(entityNames: Set(emptied.map { model.infos[$0].name }), runs: runs)
    }
}
