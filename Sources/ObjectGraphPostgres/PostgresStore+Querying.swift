import ObjectGraph

extension PostgresStore: SQLEngineStore {
    /// Opens the store as ``load(model:)`` does (with `migration` in place of ``migration`` when
    /// given), without reading its rows: a container then queries the database.
    package func openForQueries(model: ManagedObjectModel, migration: MigrationOptions?) throws -> StoreSnapshot {
        try open(model, migration: migration ?? self.migration, readingRows: false)
    }

    /// Runs the reading `body` on the open store's engine, on a new session if the server dropped
    /// the old one, and once more on a new session if the connection drops during it.
    package func withOpenEngine<T>(_ body: (SQLStoreEngine) throws -> T) throws -> T {
        try state.withLock { open in
            guard var current = open else { throw PersistenceError.postgresStoreClosed(server: server) }
            defer { open = current }
            return try retryingRead(&current, body)
        }
    }
}

extension PostgresStore: ExternalChangeSignalingStore {
    /// Starts listening for other servers' saves on a session of its own (replacing an earlier
    /// listener), calling `handler` when one arrives, until the store closes.
    package func signalExternalChanges(to handler: @escaping @Sendable () -> Void) {
        guard let namespace = state.withLock({ $0?.namespace }) else { return }
        let listener = PostgresChangeListener(handler: handler)
        changeListener.withLock { current in
            current?.stop()
            current = listener
        }
        listener.start(self, namespace: namespace)
    }
}
