extension ManagedContext {
    /// Commits every unsaved change to the store, all or nothing.
    ///
    /// Calls `willSave()` on each changed object, validates every inserted and updated object
    /// (required values, relationship counts, `deny` delete rules, `validateForSave()`), checks
    /// that no object changed in the store since this context read it, and asks the store to make
    /// the change durable. If any step fails, the store and this context stay exactly as they were.
    /// Does nothing when there are no changes.
    ///
    /// - Throws: `PersistenceError.Code.validation` listing every failure in `detailedErrors`;
    ///   `PersistenceError.Code.conflict` naming the stale objects; or the store's error.
    /// - Complexity: O(*c*) for *c* changed objects, plus the store's cost.
    ///
    /// Core Data: `NSManagedObjectContext.save()`.
    public func save() throws {
        guard hasChanges else { return }
        let (insertedObjects, updatedObjects, deletedObjects) = try withChangeJournal {
            for object in inserted { object.willSave() }
            for object in touched where object.isUpdated { object.willSave() }
            for object in deleted { object.willSave() }

            let insertedObjects = orderedInsertedObjects
            let updatedObjects = touched.filter(\.isUpdated).sorted { $0.objectID.key < $1.objectID.key }
            let deletedObjects = orderedDeletedObjects
            try validate(inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects)

            var commit = StoreCoordinator.Commit()
            commit.inserted = insertedObjects.map { write($0) }
            commit.updated = updatedObjects.map { write($0) }
            commit.deleted = deletedObjects.map { write($0) }
            try coordinator.commit(commit)
            return (insertedObjects, updatedObjects, deletedObjects)
        }

        for object in insertedObjects {
            object.committed = object.values
            object.version = 1
            object.flags.isInserted = false
        }
        for object in updatedObjects {
            object.committed = object.values
            object.version += 1
        }
        for object in touched { object.flags.isTouched = false }
        touched.removeAll()
        for object in deletedObjects { unregister(object) }
        clearPendingInsertsAndDeletes()
        for object in insertedObjects { object.didSave() }
        for object in updatedObjects { object.didSave() }
        for object in deletedObjects { object.didSave() }
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
            entityIndex: object.info.index, key: object.objectID.key, values: object.values,
            expectedVersion: object.version)
    }
}
