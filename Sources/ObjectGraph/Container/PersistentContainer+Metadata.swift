extension PersistentContainer {
    /// Key/value pairs kept in the store file beside the objects: an import marker, a sync
    /// token, the app version that last wrote the store. Empty for a new store.
    ///
    /// For example:
    /// ```swift
    /// if container.storeMetadata["seeded"] == nil {
    ///     try seed(container)
    ///     try container.setStoreMetadata(container.storeMetadata.merging(["seeded": "1"]) { $1 })
    /// }
    /// ```
    ///
    /// Core Data: `NSPersistentStoreCoordinator.metadata(for:)`.
    public var storeMetadata: [String: String] { coordinator.snapshot().metadata }

    /// Replaces the store's metadata and writes it to the store at once, serialised with saves;
    /// contexts and their unsaved changes are untouched. The JSON and binary file stores keep it
    /// in their file, the in-memory store for its lifetime; the discard store forgets it.
    ///
    /// - Throws: `PersistenceError.Code.readOnlyStore` for a store opened read-only, or the
    ///   store's write errors; the metadata is then unchanged.
    ///
    /// Core Data: `NSPersistentStoreCoordinator.setMetadata(_:for:)`, without waiting for a save.
    public func setStoreMetadata(_ metadata: [String: String]) throws {
        try coordinator.setMetadata(metadata)
    }
}
