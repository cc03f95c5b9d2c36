extension ManagedContext {
    /// Commits every unsaved change to the store, all or nothing.
    ///
    /// Calls `willSave()` on each changed object, validates every inserted and updated object
    /// (required values, relationship counts, `deny` delete rules, `validateForSave()`), checks
    /// that no object changed in the store since this context read it, and asks the store to make
    /// the change durable. If any step fails, the store and this context stay exactly as they were.
    /// Does nothing when there are no changes. A child context's save commits into its parent
    /// instead of the store; see ``newChildContext(name:)``.
    ///
    /// - Throws: `PersistenceError.Code.validation` listing every failure in `detailedErrors`;
    ///   `PersistenceError.Code.conflict` naming the stale objects; or the store's error.
    /// - Complexity: O(*c*) for *c* changed objects, plus the store's cost.
    ///
    /// Core Data: `NSManagedObjectContext.save()`.
    public func save() throws {
        try mergePendingSaves()
        guard hasChanges else { return }
        if let parent { return try push(into: parent) }
        let (insertedObjects, updatedObjects, deletedObjects, outcomes) = try withChangeJournal {
            for object in inserted { object.willSave() }
            for object in touched where object.isUpdated { object.willSave() }
            // Deferred deletes (`ManagedContext+DeferredDeletes`) have no hooks and no checks.
            for object in deletedStorage { object.willSave() }

            let insertedObjects = orderedInsertedObjects
            let updatedObjects = touched.filter(\.isUpdated).sorted { $0.objectKey < $1.objectKey }
            var deletedObjects = orderedDeletedObjectsForSave
            let hadDeferredDeletes = !deferredDeletes.isEmpty
            try validate(inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects)
            // A validation method that looked objects up made the deferred deletes objects, or
            // one that refreshed a deleted object found it gone: read the list again.
            if hadDeferredDeletes || deletedObjects.count != deletedStorage.count {
                deletedObjects = orderedDeletedObjectsForSave
            }

            var commit = StoreCoordinator.Commit()
            commit.policy = mergePolicy
            commit.origin = identifier
            commit.inserted = insertedWrites(insertedObjects)
            commit.updated = updatedObjects.map { write($0) }
            commit.deleted = deletedWrites(of: deletedObjects) { write($0) }
            let outcomes = try withInsertedSetReleased { try coordinator.commit(commit) }
            return (insertedObjects, updatedObjects, deletedObjects, outcomes)
        }

        for object in touched { object.flags.isTouched = false }
        touched.removeAll()
        clearPendingInsertsAndDeletes()
        if !outcomes.isEmpty {
            let written = insertedObjects + updatedObjects + deletedObjects
            let writtenIDs = Set(written.map(\.objectID))
            // Stored objects that absorbed an inserted duplicate: refresh their registered instances.
            for (id, outcome) in outcomes where !writtenIDs.contains(id) {
                if let object = registry[id] { apply(outcome, to: object) }
            }
        }
        for object in insertedObjects {
            apply(
                (outcomes.isEmpty ? nil : outcomes[object.objectID])
                    ?? .saved(object.objectID, version: 1, values: object.values), to: object)
        }
        for object in updatedObjects {
            if !outcomes.isEmpty, let outcome = outcomes[object.objectID] {
                apply(outcome, to: object)
            } else {
                didSaveAsWritten(object)
            }
        }
        for object in deletedObjects {
            apply((outcomes.isEmpty ? nil : outcomes[object.objectID]) ?? .deleted, to: object)
        }
        for objects in [insertedObjects, updatedObjects, deletedObjects] {
            for object in objects { object.didSave() }
        }
        didProcessChanges()
    }

    /// Brings an object in line with what the commit did to it.
    private func apply(_ outcome: StoreCoordinator.Outcome, to object: ManagedObject) {
        switch outcome {
        case .saved(let id, let version, let values):
            object.flags.isInserted = false
            if id != object.objectID {
                // An inserted duplicate merged into the stored object `id`: the instance already
                // registered for it (if any) takes the merged values; otherwise this one becomes it.
                registry[object.objectID] = nil
                if let existing = registry[id], existing !== object {
                    existing.replaceValues(values)
                    existing.committed = values
                    existing.version = version
                    object.context = nil
                    object.flags = ManagedObject.Flags()
                    return
                }
                object.objectID = id
                registry[id] = object
            }
            object.replaceValues(values)
            object.committed = values
            object.version = version
        case .deleted:
            unregister(object)
        case .refreshed(let version, let values):
            object.flags.isDeleted = false
            object.replaceValues(values)
            object.observationDidDelete()
            object.committed = values
            object.version = version
        case .gone:
            object.flags.isDeleted = false
            object.flags.isMissing = true
            object.observationDidDelete()
        }
    }

    /// What `apply(.saved(object.objectID, version: object.version + 1, values: object.values))`
    /// does to an updated object the commit wrote as it was: its values become its saved ones.
    /// No value changes, so observers hear nothing; replaced-values listeners are told.
    private func didSaveAsWritten(_ object: ManagedObject) {
        noteReplacedValues(of: object)
        object.committed = object.values
        object.version &+= 1  // wrapping, as the commit's `CommitPlan.apply` does
    }

    /// Saves if there are unsaved changes; returns whether it saved.
    ///
    /// - Throws: as ``save()``.
    @discardableResult
    public func saveIfNeeded() throws -> Bool {
        guard hasChanges else { return false }
        try save()
        return true
    }

    private func write(_ object: ManagedObject) -> StoreCoordinator.Commit.Write {
        .init(
            entityIndex: object.info.index, key: object.objectKey, values: object.values,
            expectedVersion: object.version, original: object.committed)
    }
}
