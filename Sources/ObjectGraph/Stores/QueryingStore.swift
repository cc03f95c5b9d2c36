/// A store kept in a database that answers queries: a container reads the rows it needs when it
/// needs them, rather than every object when it opens (the SQL stores).
///
/// The coordinator translates fetches into SQL against ``layout`` (`SQLFetchTranslation`), runs
/// them with ``withDatabase(_:)``, reads the rows they select with ``rows(entityIndex:keys:)``
/// and keeps those in a bounded cache; the in-memory engine finishes what SQL could not express.
/// Saves still go through ``PersistentStore/save(_:)`` as change sets. The contract is in
/// Docs/Architecture.md ("The querying-store seam").
protocol QueryingStore: PersistentStore {
    /// Opens the store as ``PersistentStore/load(model:)`` does (migrating it as `migration`
    /// says, or as the store's own options say when it is `nil`), but reads no rows: the snapshot
    /// holds the next keys and the store metadata, and empty tables. Unless the store cannot
    /// answer queries after all (``answersQueries``): then it holds every object.
    func open(model: ManagedObjectModel, migration: MigrationOptions?) throws -> StoreSnapshot

    /// Whether the open store answers queries; `false` when it handed every object over at
    /// open (a read-only store migrated in memory, whose database keeps the old schema).
    var answersQueries: Bool { get }

    /// The table layout of the open store, which queries are written against.
    ///
    /// - Throws: `.storeClosed` if the store is not open.
    func layout() throws -> SQLStoreSchema

    /// Runs `body` on the store's connection, in a read transaction (one consistent state), with
    /// nothing else using the connection meanwhile.
    ///
    /// - Throws: `.storeClosed` if the store is not open; the database's errors, typed.
    func withDatabase<T>(_ body: (any SQLDatabase) throws -> T) throws -> T

    /// The current rows of the objects of one entity with `keys` (with their to-many members),
    /// in the order of `keys`; keys without a row are left out.
    ///
    /// - Throws: `.storeClosed`; `.corruptStore` for a row that does not fit the model.
    func rows(entityIndex: Int, keys: [Int64]) throws -> [(key: Int64, row: EntityTable.Row)]

    /// The rows `query` selects, in its order, with their to-many members: a query whose columns
    /// are `SQLStoreSchema.rowColumns(entityIndex:alias:_:)`, run in one read transaction.
    ///
    /// - Throws: `.storeClosed`; `.corruptStore` for a row that does not fit the model.
    func rows(entityIndex: Int, query: String, bindings: [SQLValue]) throws -> [(key: Int64, row: EntityTable.Row)]

    /// Every object the store holds, with the next keys its rows imply (not those reserved in
    /// the store, which the container tracks): for the operations that still work on whole
    /// tables.
    func readAll() throws -> StoreSnapshot
}
