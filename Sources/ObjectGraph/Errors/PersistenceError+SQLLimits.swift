extension PersistenceError {
    /// A store metadata key or value holding a NUL character, for a database whose text cannot.
    static func metadataHoldsNUL(key: String, database: String) -> PersistenceError {
        PersistenceError(
            code: .typeMismatch,
            message: "The store metadata entry \"\(excerpt(key))\" holds a NUL character (in its key or value), "
                + "which \(database) text cannot store. Nothing was saved: remove the NUL.",
            key: key)
    }

    /// A table or index name longer than the database keeps (it would shorten it silently, and
    /// two names could become one).
    static func sqlIdentifierTooLong(_ name: String, limit: Int, database: String) -> PersistenceError {
        PersistenceError(
            code: .invalidModel,
            message: "The model cannot be stored in \(database): the table or index name \"\(excerpt(name))\" is "
                + "longer than the \(limit) bytes \(database) keeps. Shorten the entity, attribute or relationship "
                + "name.")
    }
}
