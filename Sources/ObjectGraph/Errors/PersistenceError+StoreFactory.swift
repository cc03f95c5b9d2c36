extension PersistenceError {
    /// A store description of the custom kind without the factory that makes its store.
    static func missingStoreFactory(_ description: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "The store description \"\(excerpt(description))\" is of the custom kind but names no store: "
                + "make it with StoreDescription.custom(_:identity:url:makeStore:) (or a module's own function, "
                + "such as .postgres(url:)) instead of setting its kind.")
    }
}
