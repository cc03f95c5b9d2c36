/// What ``ManagedContext/select(_:info:_:)`` needs of a fetch request, without its result type.
struct FetchSelection {
    let predicate: FetchPredicate?
    let sortDescriptors: [SortDescriptor]
    let fetchLimit: Int
    let fetchOffset: Int
    let includesPendingChanges: Bool
    let includesSubentities: Bool

    init<Result>(_ request: FetchRequest<Result>) {
        predicate = request.predicate
        sortDescriptors = request.sortDescriptors
        fetchLimit = request.fetchLimit
        fetchOffset = request.fetchOffset
        includesPendingChanges = request.includesPendingChanges
        includesSubentities = request.includesSubentities
    }

    /// The same selection with another limit and offset, for one entity of a hierarchy.
    init(_ selection: FetchSelection, fetchLimit: Int, fetchOffset: Int) {
        predicate = selection.predicate
        sortDescriptors = selection.sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        includesPendingChanges = selection.includesPendingChanges
        includesSubentities = false
    }
}
