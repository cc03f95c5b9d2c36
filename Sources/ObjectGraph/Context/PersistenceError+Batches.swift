extension PersistenceError {
    /// Reading the next page of a ``FetchedBatches`` from the store failed with an error that is
    /// not a `PersistenceError`.
    static func pageReadFailed(_ error: any Error, entityName: String) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "Reading the next page of \(entityName) objects failed with a \(type(of: error)) (its "
                + "error is `underlying`). Call fetchBatches(_:) again once the store can be read.",
            entityName: entityName, underlying: error)
    }
}
