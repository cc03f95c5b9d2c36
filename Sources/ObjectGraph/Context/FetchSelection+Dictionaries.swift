extension FetchSelection {
    /// The selection of `request`'s objects, without its sort descriptors (unless `sorted`) and
    /// without its limit and offset (unless `paged`): a grouped or distinct dictionary fetch sorts
    /// and pages its dictionaries, not the objects.
    init<Result>(_ request: FetchRequest<Result>, sorted: Bool, paged: Bool) {
        predicate = request.predicate
        sortDescriptors = sorted ? request.sortDescriptors : []
        fetchLimit = paged ? request.fetchLimit : 0
        fetchOffset = paged ? request.fetchOffset : 0
        includesPendingChanges = request.includesPendingChanges
        // A dictionary fetch reads one entity's table (it refuses a hierarchy before it gets here).
        includesSubentities = false
    }
}
