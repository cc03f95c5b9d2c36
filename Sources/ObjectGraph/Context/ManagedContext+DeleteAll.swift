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
        try withChangeJournal {
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
        try withChangeJournal {
            let objects = try fetch(request)
            objects.forEach(delete)
            try save()
            return objects.count
        }
    }
}
