extension ManagedContext {
    /// The objects a fetch request selects, a page of `fetchBatchSize` objects at a time (100
    /// when it is 0): the way to visit every object of a large store in bounded memory. Each
    /// page's rows are read together when the page is reached; an unchanged object leaves the
    /// context once nobody holds it, so a page the caller is done with costs nothing.
    ///
    /// The pages hold the objects ``fetchObjectIDs(_:)`` selects, in its order. When a SQL
    /// store selects the fetch exactly and in order, and the context has no pending changes of
    /// the entity, each page is selected as it is reached, continuing after the previous page's
    /// last object in the sort order, so that memory holds one page whatever the store's size: a
    /// page then sees the saves made since the first, and an object whose sort values a save
    /// changed meanwhile may be visited twice or not at all (never in key order, the order
    /// without sort descriptors). Otherwise the request selects every ID when this is called. An
    /// object deleted from the store before its page is reached is left out of that page; a page
    /// read that fails ends the iteration and sets ``FetchedBatches/error``.
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
        let size = request.fetchBatchSize > 0 ? request.fetchBatchSize : FetchedBatches<Result>.defaultSize
        if let scan = try keysetScan(request, size: size) {
            return FetchedBatches(context: self, scan: scan, size: size)
        }
        return FetchedBatches(context: self, ids: try fetchObjectIDs(request), size: size)
    }

    /// The keys of the committed objects a top-level context's fetch selects when a querying
    /// store's SQL says exactly which (and the context has no pending changes of the entity);
    /// `nil` otherwise.
    func committedKeysOnly<Result>(_ request: FetchRequest<Result>, info: EntityInfo) throws -> [Int64]? {
        guard try selectsCommittedKeys(request, info: info) else { return nil }
        return try coordinator.exactKeys(
            info, predicate: request.predicate?.expression, sort: request.sortDescriptors,
            limit: request.fetchLimit > 0 ? request.fetchLimit : nil, offset: max(0, request.fetchOffset))
    }

    /// Whether a querying store's SQL may select a top-level context's fetch of `info` on its
    /// own: its predicate is not evaluated in Swift, and the context has no pending changes of
    /// the entity that the fetch would include. Checks the predicate and sort as the fetch would.
    func selectsCommittedKeys<Result>(_ request: FetchRequest<Result>, info: EntityInfo) throws -> Bool {
        guard coordinator.querying != nil, parent == nil, request.predicate?.evaluatesInSwift != true else {
            return false
        }
        if request.includesPendingChanges {
            let index = info.index
            guard !inserted.contains(where: { $0.info.index == index }),
                !touched.contains(where: { $0.info.index == index }),
                !deleted.contains(where: { $0.info.index == index })
            else { return false }
        }
        // Checked (and its errors typed) as the fetch would.
        if let predicate = request.predicate {
            _ = try CompiledPredicate(predicate.expression, entity: info, model: model)
        }
        if !request.sortDescriptors.isEmpty {
            _ = try CompiledSort(request.sortDescriptors, entity: info, model: model)
        }
        return true
    }
}
