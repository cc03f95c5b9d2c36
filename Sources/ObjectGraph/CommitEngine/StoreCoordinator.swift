/// The committed state of one container: an indexed record table, the store behind it, and the
/// one place where commits are serialised.
///
/// A fetch copies the current snapshot (O(1)) and works outside the lock. A commit checks
/// versions, asks the store to persist the change, and only then publishes the new snapshot, so
/// a store failure changes nothing.
final class StoreCoordinator: Sendable {
    struct State {
        var snapshot: StoreSnapshot
        var nextKeys: [Int64]
        /// Uniqueness indexes by entity index, built on first use and kept current.
        var uniqueIndexes: [Int: [UniqueIndex]] = [:]
        /// Per entity, the end of the block of keys reserved from a store shared with other
        /// processes (`Int64.max` for other stores); see `StoreCoordinator+Keys.swift`.
        var keyLimits: [Int64] = []
        /// Per entity, how many blocks were reserved (each is twice the last, up to a limit).
        var keyReservations: [Int] = []
        /// How many rows a querying store's cache holds before it starts over.
        var rowCacheLimit = StoreCoordinator.defaultRowCacheLimit
    }

    let model: ManagedObjectModel
    let store: any PersistentStore
    /// The store, when it answers queries: the snapshot is then a bounded cache of the rows read
    /// so far, not the store's contents (see `StoreCoordinator+Querying.swift`).
    let querying: (any QueryingStore)?
    let broadcaster = SaveBroadcaster()
    let state: Locked<State>
    /// Held for the whole of a commit, store I/O included; fetches never wait for it.
    let commitLock = Locked(())
    /// Serialises merges of other processes' saves (see `StoreCoordinator+ExternalSignals.swift`).
    let externalMergeLock = Locked(())

    /// Opens `store` for `model`; with `migration`, a store that can migrate does so with those
    /// options in place of its own.
    init(model: ManagedObjectModel, store: any PersistentStore, migration: MigrationOptions? = nil) throws {
        let snapshot: StoreSnapshot
        var querying = store as? any QueryingStore ?? (store as? any SQLEngineStore).map(SQLEngineQueryingStore.init)
        if let opening = querying {
            snapshot = try opening.open(model: model, migration: migration)
            if opening.answersQueries {
                // The engine's own tests and string order, which translated SQL calls.
                try opening.withDatabase { database in
                    if database.dialect.supportsCustomFunctions,
                        let registering = database as? any SQLFunctionRegistering
                    {
                        try SQLFetchTranslation.installFunctions(on: registering, model: model)
                    }
                }
            } else {
                querying = nil
            }
        } else if let migration, let migrating = store as? any SchemaMigratingStore {
            snapshot = try migrating.load(model: model, migration: migration)
        } else {
            snapshot = try store.load(model: model)
        }
        self.model = model
        self.store = store
        self.querying = querying
        let nextKeys = snapshot.tables.map(\.nextKey)
        let reserves = store is any ExternallyChangedStore && !store.isReadOnly
        self.state = Locked(
            State(
                snapshot: snapshot, nextKeys: nextKeys, keyLimits: reserves ? nextKeys : nextKeys.map { _ in .max },
                keyReservations: nextKeys.map { _ in 0 }))
        followExternalSignals()
    }

    deinit {
        store.close()
    }

    /// The committed state now: for a querying store, the rows read so far (use
    /// ``committedRow(of:)`` and the querying methods to read others).
    func snapshot() -> StoreSnapshot {
        state.withLock { $0.snapshot }
    }

    /// A new, never used key for an object of the entity at `entityIndex`.
    func allocateKey(entityIndex: Int) -> Int64 {
        state.withLock { state in
            if state.nextKeys[entityIndex] >= state.keyLimits[entityIndex] {
                reserveKeyBlock(entityIndex: entityIndex, in: &state)
            }
            let key = state.nextKeys[entityIndex]
            precondition(
                key <= EntityTable.maxKey,
                "Entity '\(model.infos[entityIndex].name)' has used all \(EntityTable.maxKey) object keys.")
            state.nextKeys[entityIndex] = key + 1
            return key
        }
    }
}
