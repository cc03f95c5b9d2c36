extension StoreCoordinator {
    /// The origin of save notifications for saves made outside this container.
    static let externalOrigin = ContextIdentifier(number: -1, name: "another process")

    /// Applies the saves that other processes (or containers) made to a shared store since the
    /// last call, and a save notification (origin "another process") tells contexts, which merge
    /// it when they merge automatically. Cheap when nothing changed (the store checks a
    /// counter). Skipped while a commit runs (the next fetch catches up).
    ///
    /// A store that hands over every object gives the changed rows, which replace the committed
    /// ones. A querying store only lists the changed objects: their rows leave the cache, and a
    /// context that has one registered reads it again when it refreshes it, so that no row is
    /// read for objects nobody holds.
    ///
    /// - Throws: The store's error when it cannot tell what changed (`.storeLocked`,
    ///   `.corruptStore`, `.ioFailure`, …); nothing is applied then, and the next call asks
    ///   again from the same point.
    func mergeExternalChanges() throws {
        guard let shared = store as? any ExternallyChangedStore else { return }
        let readsRows = querying == nil
        _ = try commitLock.withLockIfAvailable { _ in
            guard let changes = try readsRows ? shared.externalChanges() : shared.externalChangedObjects() else {
                return
            }
            var inserted: Set<ObjectID> = []
            var updated: Set<ObjectID> = []
            var deleted: Set<ObjectID> = []
            state.withLock { state in
                if readsRows {
                    for record in changes.records {
                        guard let info = model.info(named: record.objectID.entityName) else { continue }
                        let key = record.objectID.key
                        if state.snapshot.tables[info.index][key] == nil {
                            inserted.insert(record.objectID)
                        } else {
                            updated.insert(record.objectID)
                        }
                        state.snapshot.tables[info.index].set(
                            EntityTable.Row(version: record.version, values: record.values), forKey: key)
                    }
                } else {
                    for id in changes.inserted + changes.updated {
                        guard let info = model.info(named: id.entityName) else { continue }
                        state.snapshot.tables[info.index].set(nil, forKey: id.key)
                    }
                    inserted = Set(changes.inserted)
                    updated = Set(changes.updated)
                }
                for id in changes.deleted {
                    guard let info = model.info(named: id.entityName) else { continue }
                    let wasCached = state.snapshot.tables[info.index][id.key] != nil
                    state.snapshot.tables[info.index].set(nil, forKey: id.key)
                    // A querying store's cache does not hold every object: each deleted one is news.
                    if wasCached || !readsRows { deleted.insert(id) }
                }
                state.snapshot.metadata = changes.metadata
                state.uniqueIndexes = [:]
            }
            broadcaster.publish(inserted: inserted, updated: updated, deleted: deleted, origin: Self.externalOrigin)
        }
    }
}
