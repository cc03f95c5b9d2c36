extension ManagedContext {
    /// Deletes every object of `type`'s entity, with its delete rules, and saves.
    ///
    /// When this context has no unsaved changes (and is not a child context), the objects are
    /// deleted in the store in one step, as a ``BatchDeleteRequest`` without a predicate does,
    /// without fetching them: the entity's table is emptied at once and a file store records
    /// one small "every object of this entity is gone" record. The delete rules still apply
    /// (`cascade` deletes the dependants, `nullify` empties inverse relationships, `deny`
    /// refuses the whole call), and the result is merged into this context, so its registered
    /// objects of the entity report `isDeleted`. Object hooks such as `willSave()` and
    /// `validateForDelete()` do not run on that path.
    ///
    /// Otherwise the objects are fetched, deleted in this context and saved with its other
    /// unsaved changes, hooks and all. In both cases, if anything fails, the store and this
    /// context are exactly as they were before the call.
    ///
    /// For example, between tests:
    /// ```swift
    /// try context.deleteAll(Fruit.self)
    /// ```
    ///
    /// - Returns: The number of objects of the entity deleted.
    /// - Throws: as ``save()``; on the store path, as ``execute(_:)-(BatchDeleteRequest)``.
    /// - Complexity: Without unsaved changes, O(*c*) for the *c* chunks of 512 keys of the
    ///   entity's table when they are full, O(*n*) for *n* objects at most (no ID made, no row
    ///   visited, except for the relationships' delete rules),
    ///   plus the registered objects to merge; the deleted rows are freed afterwards on a
    ///   background thread. Otherwise O(*n*) objects fetched and deleted.
    ///
    /// Core Data: an `NSBatchDeleteRequest` over every object of the entity, merged with
    /// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`.
    @discardableResult
    public func deleteAll<Object: ManagedObject>(_ type: Object.Type) throws -> Int {
        try deleteAll(FetchRequest<Object>())
    }

    /// Deletes every object of the named entity, with its delete rules, and saves, as
    /// ``deleteAll(_:)`` does.
    ///
    /// - Throws: `PersistenceError.Code.invalidFetchRequest` for an entity the model lacks, or
    ///   as ``save()``.
    @discardableResult
    public func deleteAll(entityName: String) throws -> Int {
        try deleteAll(FetchRequest<ManagedObject>(entityName: entityName))
    }

    /// Deletes every object of every entity and saves: an empty store, for example between tests.
    ///
    /// Without unsaved changes, every entity is emptied in one step in the store, as
    /// ``deleteAll(_:)`` describes; otherwise the objects are fetched, deleted and saved.
    ///
    /// - Returns: The number of objects deleted.
    /// - Throws: as ``save()``.
    @discardableResult
    public func deleteAll() throws -> Int {
        if canDeleteInStore { return try deleteInStore(model.infos) }
        return try withChangeJournal {
            var count = 0
            for info in model.infos {
                let objects = try fetch(FetchRequest<ManagedObject>(entityName: info.name))
                count += objects.filter { !$0.isDeleted }.count
                objects.forEach(delete)
            }
            try save()
            return count
        }
    }

    private func deleteAll<Object: ManagedObject>(_ request: FetchRequest<Object>) throws -> Int {
        if canDeleteInStore, let name = request.entityName ?? model.info(forClass: Object.self)?.name,
            let info = model.info(named: name)
        {
            // With inheritance, the objects of the entity's sub-entities go too.
            return try deleteInStore(info.familyIndexes.map { model.infos[$0] })
        }
        return try withChangeJournal {
            let objects = try fetch(request)
            objects.forEach(delete)
            try save()
            return objects.count
        }
    }

    /// Whether a delete of everything may go straight to the store: nothing unsaved here to save
    /// with it, and a store (not a parent context) beneath.
    private var canDeleteInStore: Bool { parent == nil && !hasChanges }

    /// Empties the entities in the store in one commit and merges the result into this context.
    private func deleteInStore(_ infos: [EntityInfo]) throws -> Int {
        try mergePendingSaves()
        let origin = ContextIdentifier(number: coordinator.broadcaster.nextContextNumber(), name: "delete all")
        let (ids, notification) = try coordinator.batchDeleteAll(infos, origin: origin)
        if let notification { mergeChanges(from: notification) }
        return ids.count
    }
}
