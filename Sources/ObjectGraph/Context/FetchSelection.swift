/// What ``ManagedContext/select(_:info:_:)`` needs of a fetch request, without its result type.
struct FetchSelection {
    let predicate: FetchPredicate?
    let sortDescriptors: [SortDescriptor]
    let fetchLimit: Int
    let fetchOffset: Int
    let includesPendingChanges: Bool

    init<Result>(_ request: FetchRequest<Result>) {
        predicate = request.predicate
        sortDescriptors = request.sortDescriptors
        fetchLimit = request.fetchLimit
        fetchOffset = request.fetchOffset
        includesPendingChanges = request.includesPendingChanges
    }
}
