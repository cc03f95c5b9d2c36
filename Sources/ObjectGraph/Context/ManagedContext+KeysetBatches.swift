extension ManagedContext {
    /// A keyset scan of `request` with its first page read, when a querying store's SQL selects
    /// the fetch exactly and in order and nothing pending in the context can change it; `nil`
    /// otherwise (the pages then come from IDs selected up front).
    func keysetScan<Result>(_ request: FetchRequest<Result>, size: Int) throws -> FetchedBatches<Result>.KeysetScan? {
        guard coordinator.querying != nil, parent == nil else { return nil }
        try mergePendingSaves()
        let info = try request.entity(in: model)
        guard !(request.includesSubentities && info.hasSubentities), try selectsCommittedKeys(request, info: info)
        else { return nil }
        var scan = FetchedBatches<Result>.KeysetScan(
            info: info, predicate: request.predicate?.expression, sort: request.sortDescriptors,
            position: StoreCoordinator.KeysetPosition(last: nil, offset: max(0, request.fetchOffset)),
            remaining: request.fetchLimit > 0 ? request.fetchLimit : nil, ready: [], isFinished: false)
        guard let first = try keysetPage(&scan, size: size) else { return nil }
        scan.ready = first
        return scan
    }

    /// The keys of the scan's next page: the one read ahead, else the next one read from the
    /// store; empty after the last.
    func nextKeysetPage<Result>(_ scan: inout FetchedBatches<Result>.KeysetScan, size: Int) throws -> [Int64] {
        if !scan.ready.isEmpty {
            defer { scan.ready = [] }
            return scan.ready
        }
        return try keysetPage(&scan, size: size) ?? []
    }

    /// Reads the scan's next page from the store; `nil` when its SQL does not select the fetch
    /// exactly and in order.
    private func keysetPage<Result>(_ scan: inout FetchedBatches<Result>.KeysetScan, size: Int) throws -> [Int64]? {
        guard !scan.isFinished else { return [] }
        let limit = min(size, scan.remaining ?? size)
        guard limit > 0 else {
            scan.isFinished = true
            return []
        }
        guard
            let keys = try coordinator.keysetPage(
                scan.info, predicate: scan.predicate, sort: scan.sort, limit: limit, after: &scan.position)
        else { return nil }
        if let remaining = scan.remaining { scan.remaining = remaining - keys.count }
        if keys.count < limit { scan.isFinished = true }
        return keys
    }
}
