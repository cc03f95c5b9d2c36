extension StoreCoordinator {
    /// The origin of save notifications for saves made outside this container.
    static let externalOrigin = ContextIdentifier(number: -1, name: "another process")

    /// Applies the saves that other processes (or containers) made to a shared store since the
    /// last call: their rows replace the committed ones, their deletes remove them, and a save
    /// notification (origin "another process") tells contexts, which merge it when they merge
    /// automatically. Cheap when nothing changed (the store checks a counter). Skipped while
    /// a commit runs (the next fetch catches up); a failing check is retried on the next call.
    func mergeExternalChanges() {
        guard let shared = store as? any ExternallyChangedStore else { return }
        _ = commitLock.withLockIfAvailable { _ in
            guard let changes = try? shared.externalChanges() else { return }
            var inserted: Set<ObjectID> = []
            var updated: Set<ObjectID> = []
            var deleted: Set<ObjectID> = []
            state.withLock { state in
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
                for id in changes.deleted {
                    guard let info = model.info(named: id.entityName), state.snapshot.tables[info.index][id.key] != nil
                    else { continue }
                    state.snapshot.tables[info.index].set(nil, forKey: id.key)
                    deleted.insert(id)
                }
                state.snapshot.metadata = changes.metadata
                state.uniqueIndexes = [:]
            }
            broadcaster.publish(inserted: inserted, updated: updated, deleted: deleted, origin: Self.externalOrigin)
        }
    }
}
