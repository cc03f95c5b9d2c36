/// A SQL store in another module (the PostgreSQL store) that lets a container query it through
/// its ``SQLStoreEngine``, rather than read every row when it opens.
///
/// The store opens without reading rows and hands out its open engine, inside its own lock, on
/// a usable connection; the coordinator's querying seam (`QueryingStore`, Docs/Architecture.md
/// "The querying-store seam") is built on it by `SQLEngineQueryingStore`, so that the store
/// needs no access to the query engine's types.
package protocol SQLEngineStore: PersistentStore {
    /// Opens the store as ``PersistentStore/load(model:)`` does (migrating it as `migration`
    /// says, or as the store's own options say when it is `nil`), but reads no rows: the snapshot
    /// holds the next keys and the store metadata. A store migrated in memory only (read-only)
    /// holds every object instead, and its engine's generation is -1.
    func openForQueries(model: ManagedObjectModel, migration: MigrationOptions?) throws -> StoreSnapshot

    /// Runs `body` on the open store's engine, with nothing else using its connection meanwhile.
    /// `body` only reads: a store may run it again on a new connection when the first one was
    /// dropped.
    ///
    /// - Throws: `.storeClosed` if the store is not open; the connection's errors, typed.
    func withOpenEngine<T>(_ body: (SQLStoreEngine) throws -> T) throws -> T
}
