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
            return try current.connection.readTransaction {
                try current.schema.readHistory(after: token?.value ?? 0, current.connection)
            }
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
            let token = try current.schema.lastHistoryToken(current.connection)
            return token > 0 ? PersistentHistoryToken(value: token) : nil
        }
    }

    func externalChanges() throws -> StoreExternalChanges? {
        try state.withLock { open in
            guard var current = open, current.generation >= 0 else { return nil }
            let connection = current.connection
            let version = try connection.dataVersion()
            guard version != current.dataVersion else { return nil }
            let (changes, last) = try connection.readTransaction { () -> (StoreExternalChanges?, Int64) in
                try SQLStoreSchema.checkGeneration(current.generation, connection, url: url)
                let transactions = try current.schema.readHistory(after: current.historyToken, connection)
                let last = transactions.last?.token.value ?? current.historyToken
                var latest: [ObjectID: PersistentHistoryChange.ChangeType] = [:]
                var order: [ObjectID] = []
                for transaction in transactions where !current.ownTokens.contains(transaction.token.value) {
                    for change in transaction.changes {
                        if latest.updateValue(change.changeType, forKey: change.objectID) == nil {
                            order.append(change.objectID)
                        }
                    }
                }
                guard !order.isEmpty else { return (nil, last) }
                let deleted = order.filter { latest[$0] == .delete }
                let records = try current.schema.readRecords(
                    order.filter { latest[$0] != .delete }, connection, statements: current.statements, url: url)
                let metadata = try current.schema.readStoreMetadata(connection)
                return (StoreExternalChanges(records: records, deleted: deleted, metadata: metadata), last)
            }
            current.dataVersion = version
            current.historyToken = last
            current.ownTokens.removeAll { $0 <= last }
            current.written.metadata = changes?.metadata ?? current.written.metadata
            open = current
            return changes
        }
    }

    func reserveKeys(ofEntity entityName: String, count: Int64) throws -> Int64 {
        try state.withLock { open in
            guard var current = open else { throw PersistenceError.storeClosed(url) }
            guard let info = current.schema.model.info(named: entityName) else {
                throw PersistenceError.unknownEntity(entityName)
            }
            let connection = current.connection
            let dialect = connection.dialect
            let start = try connection.writeTransaction {
                // (A read-only store migrated in memory, generation -1, has no tables of its model.)
                if current.generation >= 0 {
                    try SQLStoreSchema.checkGeneration(current.generation, connection, url: url)
                }
                let persisted =
                    try connection.rows(
                        "SELECT next FROM \(dialect.quote(SQLStoreSchema.keysTable)) WHERE entity = \(dialect.placeholder(1))",
                        [.text(entityName)]
                    ).first?.first?.integer ?? 1
                let stored =
                    try connection.rows(
                        "SELECT MAX(\(dialect.quote(SQLStoreSchema.keyColumn))) FROM "
                            + dialect.quote(current.schema.tables[info.index].name)
                    ).first?.first?.integer ?? 0
                let start = max(persisted, stored + 1)
                try connection.run(current.schema.nextKeyUpsert(dialect), [.text(entityName), .integer(start + count)])
                return start
            }
            current.reservedKeyEnds[entityName] = start + count
            open = current
            return start
        }
    }
}
