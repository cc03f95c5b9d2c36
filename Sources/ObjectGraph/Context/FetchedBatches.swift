/// The objects of a fetch, a page at a time: what ``ManagedContext/fetchBatches(_:)`` returns.
///
/// Iterate it in the context's isolation domain; each element is the next page of objects, in
/// the fetch's order.
///
/// Core Data: the batch-faulting array of a fetch with `fetchBatchSize`.
public struct FetchedBatches<Result: ManagedObject>: Sequence, IteratorProtocol {
    /// The page size when a request's `fetchBatchSize` is 0.
    public static var defaultSize: Int { 100 }

    let context: ManagedContext
    /// The IDs of every object of the fetch, in order, when they were selected up front; empty
    /// when each page is selected from the store as it is reached.
    public var ids: [ObjectID] {
        if case .selected(let ids, _) = source { return ids }
        return []
    }
    /// How many objects each page holds (the last may hold fewer).
    public let size: Int
    /// The error that ended the iteration early: a store read failing when a page was selected
    /// as it was reached. `nil` when every page was read.
    public private(set) var error: PersistenceError?
    private var source: Source

    /// Where the pages come from.
    enum Source {
        /// Every ID selected up front, and the position of the next page.
        case selected([ObjectID], position: Int)
        /// Pages selected from a querying store as they are reached; the first one is read.
        case keyset(KeysetScan)
    }

    /// A keyset scan: each page is the objects after the previous page's last, in the fetch's
    /// order, read when it is reached.
    struct KeysetScan {
        let info: EntityInfo
        let predicate: PredicateExpression?
        let sort: [FetchSortDescriptor]
        var position: StoreCoordinator.KeysetPosition
        /// Objects the fetch's limit still allows (`nil`: no limit).
        var remaining: Int?
        /// The keys of the page read and not yet handed out.
        var ready: [Int64]
        var isFinished: Bool
    }

    init(context: ManagedContext, ids: [ObjectID], size: Int) {
        self.context = context
        self.size = size
        source = .selected(ids, position: 0)
    }

    init(context: ManagedContext, scan: KeysetScan, size: Int) {
        self.context = context
        self.size = size
        source = .keyset(scan)
    }

    /// How many object IDs the iterator holds now: what bounds its memory.
    var heldIDCount: Int {
        switch source {
        case .selected(let ids, _): ids.count
        case .keyset(let scan): scan.ready.count
        }
    }

    /// The next page of objects, or `nil` after the last (or once ``error`` is set).
    public mutating func next() -> [Result]? {
        let page: [ObjectID]
        switch source {
        case .selected(let ids, let position):
            guard position < ids.count else { return nil }
            page = Array(ids[position..<Swift.min(ids.count, position + size)])
            source = .selected(ids, position: position + page.count)
        case .keyset(var scan):
            do {
                page = try context.nextKeysetPage(&scan, size: size).map {
                    ObjectID(entityName: scan.info.name, key: $0)
                }
            } catch {
                self.error = error as? PersistenceError ?? .pageReadFailed(error, entityName: scan.info.name)
                scan.isFinished = true
                page = []
            }
            source = .keyset(scan)
            guard !page.isEmpty else { return nil }
        }
        context.prefetchRows(of: page)
        return page.compactMap { context.existingOrNil($0) as? Result }
    }
}
