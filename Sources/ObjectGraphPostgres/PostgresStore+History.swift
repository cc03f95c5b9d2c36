import ObjectGraph

extension PostgresStore: ExternallyChangedStore {
    /// The transactions saved to this store after `token` (all of them if `nil`), oldest first,
    /// by any server or container, this one included.
    ///
    /// For example:
    /// ```swift
    /// let transactions = try store.fetchHistory(after: lastToken)
    /// lastToken = transactions.last?.token ?? lastToken
    /// ```
    ///
    /// - Throws: `.storeClosed` if the store is not open; the server's errors, typed (a dropped
    ///   connection is retried once on a new one).
    /// - Complexity: O(*t* + *c*) for *t* transactions with *c* changes after `token`.
    ///
    /// Core Data: `NSPersistentHistoryChangeRequest.fetchHistory(after:)`.
    public func fetchHistory(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        try reading { try $0.fetchHistory(after: token) }
    }

    /// Deletes the transactions saved before `token` from the persistent history, with their
    /// changes; the transaction of `token` and later ones stay, and so does the last one.
    ///
    /// Delete only what every server that follows the history has read: one that has not read a
    /// deleted transaction no longer learns of its changes.
    ///
    /// - Returns: The number of transactions deleted.
    /// - Throws: `.readOnlyStore` for a read-only store; `.storeClosed` if the store is not open;
    ///   the server's errors, typed (a dropped connection is retried once on a new one).
    ///
    /// Core Data: `NSPersistentHistoryChangeRequest.deleteHistory(before:)`.
    @discardableResult
    public func deleteHistory(before token: PersistentHistoryToken) throws -> Int {
        guard !isReadOnly else { throw PersistenceError.postgresReadOnlyStore(server: server) }
        return try reading { try $0.deleteHistory(before: token) }
    }

    /// The token of the last transaction saved to this store, or `nil` if none was.
    ///
    /// - Throws: `.storeClosed` if the store is not open; the server's errors, typed.
    ///
    /// Core Data: `NSPersistentStoreCoordinator.currentPersistentHistoryToken(fromStores:)`.
    public func currentHistoryToken() throws -> PersistentHistoryToken? {
        try reading { try $0.currentHistoryToken() }
    }

    /// Other servers' saves since the last call, or `nil` if there were none.
    ///
    /// A notification from another session on the store's channel (or a replaced session, which
    /// may have missed one) sends the store straight to the history. Without one, it compares
    /// the last history token (one indexed query): notifications arrive asynchronously, and a
    /// save that returned on another server must be visible to the next fetch here.
    package func externalChanges() throws -> StoreExternalChanges? {
        try state.withLock { open in
            guard var current = open else { return nil }
            defer { open = current }
            var check = current.mustReadHistory
            do {
                let own = current.connection.backendProcessID
                check = try current.connection.notifications().contains { $0.senderProcessID != own } || check
            } catch let error as PersistenceError where error.isConnectionLost {
                try reconnect(&current)
                check = true
            }
            if !check {
                let last = try retryingRead(&current) { try $0.currentHistoryToken()?.value ?? 0 }
                check = last > current.engine.historyToken
            }
            guard check else { return nil }
            let changes = try retryingRead(&current) { try $0.externalChanges() }
            current.mustReadHistory = false
            return changes
        }
    }

    /// Reserves a block of keys in a write transaction; retried once on a new session if the
    /// connection was dropped (a block reserved twice only costs key space).
    package func reserveKeys(ofEntity entityName: String, count: Int64) throws -> Int64 {
        try state.withLock { open in
            guard var current = open else { throw PersistenceError.postgresStoreClosed(server: server) }
            defer { open = current }
            return try retryingRead(&current) { try $0.reserveKeys(ofEntity: entityName, count: count) }
        }
    }

    /// Runs the idempotent `body` on the open store's engine, on a new session if the server
    /// dropped the old one, and once more on a new session if the connection drops during it.
    private func reading<T>(_ body: (SQLStoreEngine) throws -> T) throws -> T {
        try state.withLock { open in
            guard var current = open else { throw PersistenceError.postgresStoreClosed(server: server) }
            defer { open = current }
            return try retryingRead(&current, body)
        }
    }

    /// Runs the idempotent `body` on `current`'s engine, replacing a dropped session first and
    /// once more if the connection drops during it.
    func retryingRead<T>(_ current: inout PostgresStoreState, _ body: (SQLStoreEngine) throws -> T) throws -> T {
        try reconnectIfDropped(&current)
        do {
            return try body(current.engine)
        } catch let error as PersistenceError where error.isConnectionLost {
            try reconnect(&current)
            return try body(current.engine)
        }
    }
}
