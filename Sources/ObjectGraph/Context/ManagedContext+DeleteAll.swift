extension ManagedContext {
    /// Deletes every object of `type`'s entity, with its delete rules, and saves.
    ///
    /// The save includes any other unsaved changes of the context. If it fails, the context is
    /// restored to exactly what it was before the call.
    ///
    /// For example, between tests:
    /// ```swift
    /// try context.deleteAll(Fruit.self)
    /// ```
    ///
    /// - Returns: The number of objects deleted.
    /// - Throws: as ``save()``.
    /// - Complexity: O(*n*) for *n* objects of the entity.
    ///
    /// Core Data: an `NSBatchDeleteRequest` over every object of the entity.
    @discardableResult
    public func deleteAll<Object: ManagedObject>(_ type: Object.Type) throws -> Int {
        try deleteAll(FetchRequest<Object>())
    }

    /// Deletes every object of the named entity, with its delete rules, and saves.
    ///
    /// - Throws: `PersistenceError.Code.invalidFetchRequest` for an entity the model lacks, or
    ///   as ``save()``.
    @discardableResult
    public func deleteAll(entityName: String) throws -> Int {
        try deleteAll(FetchRequest<ManagedObject>(entityName: entityName))
    }

    /// Deletes every object of every entity and saves: an empty store, for example between tests.
    ///
    /// - Throws: as ``save()``.
    @discardableResult
    public func deleteAll() throws -> Int {
        try withRestoreOnFailure {
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
        try withRestoreOnFailure {
            let objects = try fetch(request)
            objects.forEach(delete)
            try save()
            return objects.count
        }
    }

    /// Runs `body`; if it throws, puts every registered object and change set back as it was.
    func withRestoreOnFailure<T>(_ body: () throws -> T) throws -> T {
        let savedRegistry = registry
        let savedInserted = inserted
        let savedDeleted = deleted
        let savedTouched = touched
        let savedObjects = registry.values.map { ($0, $0.values, $0.flags) }
        do {
            return try body()
        } catch {
            for object in registry.values where savedRegistry[object.objectID] !== object {
                object.context = nil
                object.flags = ManagedObject.Flags()
            }
            registry = savedRegistry
            inserted = savedInserted
            deleted = savedDeleted
            touched = savedTouched
            for (object, values, flags) in savedObjects {
                object.values = values
                object.flags = flags
                object.context = self
            }
            throw error
        }
    }
}
