import Foundation

extension SQLiteStore: ExternallyChangedStore {
    /// The transactions saved to this store after `token` (all of them if `nil`), oldest first,
    /// by any process or container, this one included.
    ///
    /// For example:
    /// ```swift
    /// let transactions = try store.fetchHistory(after: lastToken)
    /// for change in transactions.flatMap(\.changes) where change.changeType == .delete { … }
    /// lastToken = transactions.last?.token ?? lastToken
    /// ```
    ///
    /// - Throws: `.storeClosed` if the store is not open; SQLite's errors, typed.
    /// - Complexity: O(*t* + *c*) for *t* transactions with *c* changes after `token`.
    ///
    /// Core Data: `NSPersistentHistoryChangeRequest.fetchHistory(after:)`.
    public func fetchHistory(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.engine.fetchHistory(after: token)
        }
    }

    /// Deletes the transactions saved before `token` from the persistent history, with their
    /// changes; the transaction of `token` and later ones stay, and so does the last one.
    ///
    /// Delete only what every process that follows the history has read: one that has not read
    /// a deleted transaction no longer learns of its changes.
    ///
    /// For example, once the app and its widget have both read up to `token`:
    /// ```swift
    /// try store.deleteHistory(before: token)
    /// ```
    ///
    /// - Returns: The number of transactions deleted.
    /// - Throws: `.readOnlyStore` for a read-only store; `.storeClosed` if the store is not open;
    ///   `.modelMismatch` if another process migrated it; SQLite's errors, typed.
    /// - Complexity: O(*t* + *c*) for *t* deleted transactions with *c* change rows.
    ///
    /// Core Data: `NSPersistentHistoryChangeRequest.deleteHistory(before:)`.
    @discardableResult
    public func deleteHistory(before token: PersistentHistoryToken) throws -> Int {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            guard !isReadOnly else { throw PersistenceError.readOnlyStore("The store \(url.path)", url: url) }
            return try current.engine.deleteHistory(before: token)
        }
    }

    /// The token of the last transaction saved to this store, or `nil` if none was.
    ///
    /// - Throws: `.storeClosed` if the store is not open; SQLite's errors, typed.
    ///
    /// Core Data: `NSPersistentStoreCoordinator.currentPersistentHistoryToken(fromStores:)`.
    public func currentHistoryToken() throws -> PersistentHistoryToken? {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.engine.currentHistoryToken()
        }
    }

    package func externalChanges() throws -> StoreExternalChanges? { try externalChanges(readingRows: true) }

    package func externalChangedObjects() throws -> StoreExternalChanges? { try externalChanges(readingRows: false) }

    private func externalChanges(readingRows: Bool) throws -> StoreExternalChanges? {
        try state.withLock { open in
            guard var current = open else { return nil }
            let version = try current.connection.dataVersion()
            guard version != current.dataVersion else { return nil }
            let changes = try current.engine.externalChanges(readingRows: readingRows)
            current.dataVersion = version
            open = current
            return changes
        }
    }

    package func reserveKeys(ofEntity entityName: String, count: Int64) throws -> Int64 {
        try state.withLock { open in
            guard let current = open else { throw PersistenceError.storeClosed(url) }
            return try current.engine.reserveKeys(ofEntity: entityName, count: count)
        }
    }
}
