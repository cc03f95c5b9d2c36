/// The querying seam of a store that hands out its ``SQLStoreEngine`` (``SQLEngineStore``): what
/// the coordinator talks to in place of the store itself when it queries it. Saving, loading and
/// closing go to the store.
final class SQLEngineQueryingStore: QueryingStore {
    /// The store whose engine answers the queries.
    let store: any SQLEngineStore

    init(_ store: any SQLEngineStore) {
        self.store = store
    }

    var isReadOnly: Bool { store.isReadOnly }

    func load(model: ManagedObjectModel) throws -> StoreSnapshot { try store.load(model: model) }

    func save(_ changes: StoreChangeSet) throws { try store.save(changes) }

    func close() { store.close() }

    func open(model: ManagedObjectModel, migration: MigrationOptions?) throws -> StoreSnapshot {
        try store.openForQueries(model: model, migration: migration)
    }

    var answersQueries: Bool {
        (try? store.withOpenEngine { $0.generation >= 0 }) ?? false
    }

    func layout() throws -> SQLStoreSchema {
        try store.withOpenEngine { $0.schema }
    }

    func withDatabase<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try store.withOpenEngine { try $0.reading(body) }
    }

    func rows(entityIndex: Int, keys: [Int64]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try store.withOpenEngine { try $0.rows(entityIndex: entityIndex, keys: keys) }
    }

    func rows(entityIndex: Int, query: String, bindings: [SQLValue]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try store.withOpenEngine { try $0.rows(entityIndex: entityIndex, query: query, bindings: bindings) }
    }

    func readAll() throws -> StoreSnapshot {
        try store.withOpenEngine { try $0.readAll() }
    }
}
