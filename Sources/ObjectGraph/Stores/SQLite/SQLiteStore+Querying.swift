import Foundation

extension SQLiteStore: QueryingStore {
    /// Opens the file as ``load(model:)`` does, without reading its rows.
    func open(model: ManagedObjectModel, migration: MigrationOptions?) throws -> StoreSnapshot {
        try openStore(model: model, migration: migration ?? self.migration, readingRows: false)
    }

    var answersQueries: Bool {
        state.withLock { ($0?.engine.generation ?? 0) >= 0 }
    }

    func layout() throws -> SQLStoreSchema {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return current.schema
        }
    }

    func withDatabase<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.connection.readTransaction {
                // Rows of another model are not this container's to read.
                try current.engine.checkGeneration()
                return try body(current.connection)
            }
        }
    }

    func rows(entityIndex: Int, keys: [Int64]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.connection.readTransaction {
                try current.engine.checkGeneration()
                return try current.schema.readRows(
                    entityIndex: entityIndex, keys: keys, current.connection, statements: current.statements, url: url)
            }
        }
    }

    func rows(entityIndex: Int, query: String, bindings: [SQLValue]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.connection.readTransaction {
                try current.engine.checkGeneration()
                return try current.schema.readRows(
                    entityIndex: entityIndex, query: query, bindings: bindings, current.connection, url: url)
            }
        }
    }

    func readAll() throws -> StoreSnapshot {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.connection.readTransaction {
                try current.engine.checkGeneration()
                return try current.schema.readSnapshot(
                    current.connection, statements: current.statements, url: url, readingNextKeys: false)
            }
        }
    }
}
