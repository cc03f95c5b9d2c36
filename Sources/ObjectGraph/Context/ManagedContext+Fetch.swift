extension ManagedContext {
    /// The objects a fetch request selects, in key (insertion) order.
    ///
    /// With `includesPendingChanges` (the default), unsaved inserts of the entity are included
    /// and objects pending deletion are left out.
    ///
    /// - Throws: `PersistenceError.Code.invalidFetchRequest` if the request's entity is not in
    ///   the model or is not represented by `Result`.
    /// - Complexity: O(*n*) for *n* objects of the entity.
    ///
    /// Core Data: `NSManagedObjectContext.fetch(_:)`.
    public func fetch<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [Result] {
        let info = try request.entity(in: model)
        var results: [Result] = []
        var skipped = 0
        let limit = request.fetchLimit > 0 ? request.fetchLimit : Int.max
        guard limit > 0 else { return [] }
        let wanted = limit == Int.max ? Int.max : limit + max(0, request.fetchOffset)
        try forEachCandidate(of: info, includingPendingChanges: request.includesPendingChanges, wanted: wanted) {
            object in
            if skipped < request.fetchOffset {
                skipped += 1
                return true
            }
            // `entity(in:)` checked that the entity's class is `Result` or a subclass of it.
            results.append(unsafeDowncast(object(), to: Result.self))
            return results.count < limit
        }
        return results
    }

    /// The number of objects a fetch request would return, without creating them.
    ///
    /// - Throws: as ``fetch(_:)``.
    /// - Complexity: O(*p*) for *p* pending changes when the request includes them; O(1) otherwise.
    ///
    /// Core Data: `NSManagedObjectContext.count(for:)`.
    public func count<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> Int {
        let info = try request.entity(in: model)
        let table = coordinator.snapshot().tables[info.index]
        var total = table.count
        if request.includesPendingChanges {
            total += inserted.reduce(0) { $0 + ($1.info.index == info.index ? 1 : 0) }
            total -= deleted.reduce(0) { $0 + ($1.info.index == info.index && table[$1.objectID.key] != nil ? 1 : 0) }
        }
        total = max(0, total - max(0, request.fetchOffset))
        return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
    }

    /// Calls `body` with a maker for each object of the entity in key order, committed rows and
    /// pending inserts merged; stops when `body` returns false. Objects are created only when
    /// the maker is called; `wanted` bounds how many the caller may create.
    private func forEachCandidate(
        of info: EntityInfo, includingPendingChanges: Bool, wanted: Int,
        _ body: (() -> ManagedObject) throws -> Bool
    ) throws {
        let pending: [ManagedObject] =
            includingPendingChanges
            ? inserted.filter { $0.info.index == info.index }.sorted { $0.objectID.key < $1.objectID.key } : []
        var next = 0
        var stopped = false
        let table = coordinator.snapshot().tables[info.index]
        registry.reserveCapacity(registry.count + min(table.count, wanted))
        try table.forEachWhile { key, row in
            while next < pending.count, pending[next].objectID.key < key {
                let object = pending[next]
                next += 1
                guard try body({ object }) else {
                    stopped = true
                    return false
                }
            }
            if includingPendingChanges, let registered = registry[ObjectID(entityName: info.name, key: key)],
                registered.flags.isDeleted
            {
                return true
            }
            if try !body({ self.materialize(info: info, key: key, row: row) }) {
                stopped = true
                return false
            }
            return true
        }
        guard !stopped else { return }
        for object in pending[next...] {
            guard try body({ object }) else { return }
        }
    }
}
