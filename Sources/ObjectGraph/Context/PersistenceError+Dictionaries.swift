extension PersistenceError {
    /// A dictionary fetch (grouping, aggregates, having) that cannot run as asked.
    static func invalidDictionaryFetch(_ problem: String, entity: String, key: String?) -> PersistenceError {
        PersistenceError(
            code: .invalidFetchRequest,
            message: "The dictionary fetch of '\(entity)' \(problem).", entityName: entity, key: key)
    }
}
