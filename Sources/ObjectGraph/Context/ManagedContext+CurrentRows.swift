extension ManagedContext {
    /// The object with `key` of `info` as a fetch in this context (not a child) sees it now: a
    /// pending insert or changed object with its current values, else its committed row in
    /// `table`; `nil` if a fetch would not see it (not stored, or pending deletion).
    ///
    /// - Complexity: O(1).
    func currentCandidate(
        key: Int64, info: EntityInfo, table: EntityTable, includingPendingChanges: Bool
    ) -> FetchCandidate? {
        let object = includingPendingChanges ? registry.object(entityIndex: info.index, key: key) : nil
        if let object, object.flags.isInserted { return Self.currentCandidate(object) }
        guard let row = table[key] else { return nil }
        if let object, object.flags.isDeleted { return nil }
        if let object, object.flags.isTouched { return Self.currentCandidate(object) }
        return FetchCandidate(key: key, values: row.values, version: row.version)
    }

    private static func currentCandidate(_ object: ManagedObject) -> FetchCandidate {
        FetchCandidate(
            object: object, key: object.objectKey, values: object.values, version: object.version,
            isPendingDeletion: object.flags.isDeleted)
    }

    /// Related objects' values as a fetch in this context (not a child) reads them: those of
    /// objects with unsaved changes (when it includes pending changes), else committed rows.
    ///
    /// Each object reached spends one unit of `budget`; once it is spent, objects read as missing.
    func currentResolver(
        snapshot: StoreSnapshot, includingPendingChanges: Bool, budget: PredicateWorkBudget
    ) -> PredicateResolver {
        let model = snapshot.model
        return PredicateResolver { [unowned self] id in
            guard budget.spend() else { return nil }
            if includingPendingChanges, let object = registry[id], object.hasUnsavedState {
                return object.flags.isDeleted || object.flags.isMissing ? nil : object.values
            }
            guard let info = model.info(named: id.entityName) else { return nil }
            return snapshot.tables[info.index][id.key]?.values
        }
    }

    /// Records that `object`'s values were replaced (a refresh, merge or rollback), for the
    /// fetched-results controllers' next round; nothing without controllers.
    func noteReplacedValues(of object: ManagedObject) {
        guard !observation.listeners.isEmpty else { return }
        observation.replacedObjectIDs.append(object.objectID)
    }
}
