extension ManagedContext {
    /// The objects a fetch request selects, a page of `fetchBatchSize` objects at a time (100
    /// when it is 0): the way to visit every object of a large store in bounded memory. Each
    /// page's rows are read together when the page is reached; an unchanged object leaves the
    /// context once nobody holds it, so a page the caller is done with costs nothing.
    ///
    /// The request selects the objects' IDs when this is called, as ``fetchObjectIDs(_:)`` does
    /// (same objects, same order); an object deleted from the store before its page is reached is
    /// left out of that page.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.fetchBatchSize = 500
    /// for page in try context.fetchBatches(request) {
    ///     for fruit in page { total += fruit.price }
    /// }
    /// ```
    ///
    /// - Throws: as ``fetch(_:)``.
    ///
    /// Core Data: a fetch with `fetchBatchSize`, whose array reads its objects a batch at a time.
    public func fetchBatches<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> FetchedBatches<Result> {
        FetchedBatches(
            context: self, ids: try fetchObjectIDs(request),
            size: request.fetchBatchSize > 0 ? request.fetchBatchSize : FetchedBatches<Result>.defaultSize)
    }

    /// The keys of the committed objects a top-level context's fetch selects when a querying
    /// store's SQL says exactly which (and the context has no pending changes of the entity);
    /// `nil` otherwise.
    func committedKeysOnly<Result>(_ request: FetchRequest<Result>, info: EntityInfo) throws -> [Int64]? {
        guard coordinator.querying != nil, parent == nil, request.predicate?.evaluatesInSwift != true else {
            return nil
        }
        if request.includesPendingChanges {
            let index = info.index
            guard !inserted.contains(where: { $0.info.index == index }),
                !touched.contains(where: { $0.info.index == index }),
                !deleted.contains(where: { $0.info.index == index })
            else { return nil }
        }
        // Checked (and its errors typed) as the fetch would.
        if let predicate = request.predicate {
            _ = try CompiledPredicate(predicate.expression, entity: info, model: model)
        }
        if !request.sortDescriptors.isEmpty {
            _ = try CompiledSort(request.sortDescriptors, entity: info, model: model)
        }
        return try coordinator.exactKeys(
            info, predicate: request.predicate?.expression, sort: request.sortDescriptors,
            limit: request.fetchLimit > 0 ? request.fetchLimit : nil, offset: max(0, request.fetchOffset))
    }
}
