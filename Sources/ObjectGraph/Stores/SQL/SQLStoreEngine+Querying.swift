import Foundation

extension SQLStoreEngine {
    /// Runs `body` on the engine's connection in one read transaction, after checking that no
    /// other process migrated the store since it was opened (rows of another model are not the
    /// container's to read).
    ///
    /// - Throws: `.modelMismatch` if another process migrated the store; the connection's errors.
    func reading<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try database.readTransaction {
            try checkGeneration()
            return try body(database)
        }
    }

    /// The current rows of `keys` of the entity at `entityIndex` (with their to-many members), in
    /// the order of `keys`, read in one read transaction; keys without a row are left out.
    ///
    /// - Throws: `.corruptStore` for a row that does not fit the model; what ``reading(_:)`` throws.
    func rows(entityIndex: Int, keys: [Int64]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try reading { database in
            try schema.readRows(entityIndex: entityIndex, keys: keys, database, statements: statements, url: url)
        }
    }

    /// The rows `query` selects (its columns are `SQLStoreSchema.rowColumns`), in its order, with
    /// their to-many members, read in one read transaction.
    ///
    /// - Throws: `.corruptStore` for a row that does not fit the model; what ``reading(_:)`` throws.
    func rows(entityIndex: Int, query: String, bindings: [SQLValue]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try reading { database in
            try schema.readRows(entityIndex: entityIndex, query: query, bindings: bindings, database, url: url)
        }
    }

    /// Every stored object, with the next keys its rows imply, read in one read transaction.
    ///
    /// - Throws: `.corruptStore` for a row that does not fit the model; what ``reading(_:)`` throws.
    /// - Complexity: O(*n*) for *n* stored objects.
    func readAll() throws -> StoreSnapshot {
        try reading { database in
            try schema.readSnapshot(database, statements: statements, url: url, readingNextKeys: false)
        }
    }
}
