extension ManagedContext {
    /// Reads the committed rows of the objects with `ids` that neither this context nor the
    /// store's cache holds, a few statements per entity: so that materializing a to-many
    /// relationship of a querying store's object reads its members together, not one by one.
    /// Does nothing for stores that hold every row.
    ///
    /// - Returns: The committed state holding those rows (`nil` for other stores, or if they
    ///   could not be read: each is then read, or found missing, when its object is reached).
    @discardableResult
    func prefetchRows(of ids: [ObjectID]) -> StoreSnapshot? {
        guard coordinator.querying != nil, ids.count > 1 else { return nil }
        var keys: [Int: [Int64]] = [:]
        for id in ids where registry[id] == nil {
            guard let info = model.info(named: id.entityName) else { continue }
            keys[info.index, default: []].append(id.key)
        }
        guard !keys.isEmpty else { return nil }
        return try? coordinator.prefetchRows(keys)
    }
}
