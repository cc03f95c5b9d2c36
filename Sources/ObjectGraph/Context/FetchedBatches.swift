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
    /// The IDs of every object of the fetch, in order.
    public let ids: [ObjectID]
    /// How many objects each page holds (the last may hold fewer).
    public let size: Int
    private var position = 0

    init(context: ManagedContext, ids: [ObjectID], size: Int) {
        self.context = context
        self.ids = ids
        self.size = size
    }

    /// The next page of objects, or `nil` after the last.
    public mutating func next() -> [Result]? {
        guard position < ids.count else { return nil }
        let page = ids[position..<Swift.min(ids.count, position + size)]
        position += page.count
        context.prefetchRows(of: Array(page))
        return page.compactMap { context.existingOrNil($0) as? Result }
    }
}
