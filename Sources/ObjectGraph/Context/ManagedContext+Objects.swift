extension ManagedContext {
    // MARK: - Looking up objects

    /// The object with the given ID: the registered instance, or one read from the store.
    ///
    /// If neither the context nor the store has such an object, the result is a placeholder that
    /// reports `isDeleted`, holds the entity's default values and belongs to no context; use
    /// ``existingObject(with:)`` to get an error instead.
    ///
    /// An ID whose entity the model does not contain is a programmer error that stops the
    /// program (Core Data raises for an ID of another model); ``existingObject(with:)`` throws.
    ///
    /// - Complexity: O(1).
    ///
    /// Core Data: `NSManagedObjectContext.object(with:)`.
    public func object(with objectID: ObjectID) -> ManagedObject {
        if let object = existingOrNil(objectID) { return object }
        guard let info = model.info(named: objectID.entityName) else {
            preconditionFailure(
                "\(objectID) names entity '\(objectID.entityName)', which is not in the model. "
                    + "Use existingObject(with:) to get an error instead.")
        }
        let missing = info.managedObjectClass.init(entity: info.materializingDescription, insertInto: nil)
        missing.objectID = objectID
        missing.flags.isMissing = true
        return missing
    }

    /// The registered object with the given ID, or one read from the store; `nil` if neither
    /// has it (or its entity is not in the model).
    func existingOrNil(_ objectID: ObjectID) -> ManagedObject? {
        guard let info = model.info(named: objectID.entityName) else { return nil }
        if let object = registeredOrDeferred(entityIndex: info.index, key: objectID.key) { return object }
        guard let row = baseRow(of: objectID, info: info) else { return nil }
        return materialize(info: info, key: objectID.key, row: row)
    }

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
        // A querying store's rows are read together first; the state returned holds them.
        var snapshot: StoreSnapshot? = parent == nil ? prefetchRows(of: ids) : nil
        for id in ids {
            if info?.name != id.entityName { info = model.info(named: id.entityName) }
            guard let info else { continue }
            // Not `registry`: only an ID of a deferred delete needs the deferred deletes as objects.
            if let object = registeredOrDeferred(entityIndex: info.index, key: id.key) {
                body(object)
                continue
            }
            let row: EntityTable.Row?
            if parent == nil {
                if snapshot == nil { snapshot = coordinator.snapshot() }
                row =
                    snapshot?.tables[info.index][id.key]
                    ?? (coordinator.querying != nil ? coordinator.committedRow(of: id, entityIndex: info.index) : nil)
            } else {
                row = baseRow(of: id, info: info)
            }
            guard let row else { continue }
            body(materialize(info: info, key: id.key, row: row))
        }
    }

    /// The object with the given ID, if it exists in this context or in the store.
    ///
    /// - Throws: `PersistenceError.Code.unknownEntity` if the model has no such entity;
    ///   `PersistenceError.Code.objectNotFound` if no such object exists (or it is deleted).
    /// - Complexity: O(1).
    ///
    /// Core Data: `NSManagedObjectContext.existingObject(with:)`.
    public func existingObject(with objectID: ObjectID) throws -> ManagedObject {
        try mergePendingSaves()
        guard model.info(named: objectID.entityName) != nil else {
            throw PersistenceError.unknownEntity(objectID.entityName)
        }
        guard let object = existingOrNil(objectID), !object.flags.isMissing else {
            throw PersistenceError.objectNotFound(objectID)
        }
        return object
    }

    /// The registered object with the given ID, without reading the store.
    ///
    /// Core Data: `NSManagedObjectContext.registeredObject(for:)`.
    public func registeredObject(for objectID: ObjectID) -> ManagedObject? {
        registry[objectID]
    }

    /// The uniqued instance for a committed row: the registered one, or a new one.
    func materialize(
        info: EntityInfo, key: Int64, row: EntityTable.Row, materializing: EntityDescription? = nil
    ) -> ManagedObject {
        if let object = registeredOrDeferred(entityIndex: info.index, key: key) { return object }
        return makeRegisteredObject(info: info, key: key, row: row, materializing: materializing)
    }

    /// A new instance of the committed row, registered and awoken from fetch; the caller knows
    /// that none is registered yet.
    func makeRegisteredObject(
        info: EntityInfo, key: Int64, row: EntityTable.Row, materializing: EntityDescription? = nil
    ) -> ManagedObject {
        let object = info.managedObjectClass.init(
            entity: materializing ?? registryStorage.materializingDescription(of: info), insertInto: nil)
        object.objectKey = key
        object.values = row.values
        object.committed = row.values
        object.version = row.version
        object.context = self
        registryStorage.register(object)
        object.awakeFromFetch()
        return object
    }

    // MARK: - Discarding changes

    /// Discards every unsaved change: inserted objects leave the context, deleted objects come
    /// back, and changed objects return to their saved values.
    ///
    /// Core Data: `NSManagedObjectContext.rollback()`.
    public func rollback() {
        // Rows a cascade deleted without objects: nothing of them is left to restore.
        discardDeferredDeletes()
        for object in touched {
            object.flags.isTouched = false
            if let committed = object.committed { object.replaceValues(committed) }
        }
        touched.removeAll()
        for object in deleted {
            object.flags.isDeleted = false
            // A cascade unlinks the objects it deletes without touching them.
            if !object.flags.isTouched, let committed = object.committed, object.values != committed {
                object.replaceValues(committed)
            }
            object.observationDidDelete()
        }
        for object in inserted {
            object.flags.isInserted = false
            unregister(object)
            object.observationDidDelete()
        }
        clearPendingInsertsAndDeletes()
        undoManager?.removeAllActions()
        didProcessChanges()
    }

    /// Forgets every object and every unsaved change; objects fetched afterwards are new
    /// instances. Objects held from before keep their values but have no context.
    ///
    /// Core Data: `NSManagedObjectContext.reset()`.
    public func reset() {
        discardDeferredDeletes()
        for object in registry.values {
            object.context = nil
            object.flags = ManagedObject.Flags()
        }
        registry.removeAll()
        observation.resets += 1
        touched.removeAll()
        clearPendingInsertsAndDeletes()
        undoManager?.removeAllActions()
        didProcessChanges()
    }

    /// Reloads an object's saved values from the store (a child context: from its parent's
    /// current state). With `mergeChanges` false its unsaved
    /// changes are discarded; with `mergeChanges` true they are kept on top of the reloaded
    /// values. An object that no longer exists in the store reports `isDeleted` afterwards. An
    /// object of another context is a programmer error that stops the program.
    ///
    /// Core Data: `NSManagedObjectContext.refresh(_:mergeChanges:)`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        precondition(object.context === self, "\(object.objectID) is not in this context.")
        guard !object.flags.isInserted, !object.flags.isMissing else { return }
        let info = object.info
        guard let row = baseRow(of: object.objectID, info: info) else {
            object.flags.isMissing = true
            if object.flags.isDeleted {
                object.flags.isDeleted = false
                deleted.remove(object)
                deletionOrderIsExact = false
            }
            touched.remove(object)
            object.flags.isTouched = false
            object.observationDidDelete()
            return
        }
        if mergeChanges, let old = object.committed {
            var merged = row.values
            for slot in merged.indices where object.values[slot] != old[slot] { merged[slot] = object.values[slot] }
            object.replaceValues(merged)
        } else {
            object.replaceValues(row.values)
        }
        object.committed = row.values
        object.version = row.version
        if object.values == row.values {
            touched.remove(object)
            object.flags.isTouched = false
        }
    }
}
