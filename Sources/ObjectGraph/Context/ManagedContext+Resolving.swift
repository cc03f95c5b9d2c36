extension ManagedContext {
    /// Calls `body` with the object of each of `ids` that exists, in order, as
    /// ``existingOrNil(_:)`` would find it (the registered instance, or one read from the store),
    /// but reading the committed snapshot once and finding an entity by name only when the
    /// entity changes from one ID to the next: for the destinations of one relationship (a
    /// cascade, a nullify, a to-many read).
    ///
    /// Each ID is resolved when its turn comes, so `body` may register, delete or unregister
    /// objects; it must not save (the snapshot is read once).
    func forEachExisting(_ ids: [ObjectID], _ body: (ManagedObject) -> Void) {
        guard ids.count > 1 else {
            if let id = ids.first, let object = existingOrNil(id) { body(object) }
            return
        }
        var info: EntityInfo?
        var snapshot: StoreSnapshot?
        for id in ids {
            if info?.name != id.entityName { info = model.info(named: id.entityName) }
            guard let info else { continue }
            if let object = registry.object(entityIndex: info.index, key: id.key) {
                body(object)
                continue
            }
            let row: EntityTable.Row?
            if parent == nil {
                if snapshot == nil { snapshot = coordinator.snapshot() }
                row = snapshot?.tables[info.index][id.key]
            } else {
                row = baseRow(of: id, info: info)
            }
            guard let row else { continue }
            body(materialize(info: info, key: id.key, row: row))
        }
    }
}
