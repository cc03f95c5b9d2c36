extension StoreCoordinator {
    /// How many rows a querying store's cache holds before it starts over, unless set otherwise:
    /// what bounds a container's memory whatever the store's size.
    static let defaultRowCacheLimit = 50_000

    /// The keys a fetch selects from a querying store, with the committed state holding their
    /// rows.
    struct Narrowing {
        /// The committed state, holding the rows of ``plan``'s keys and of the keys asked for.
        var snapshot: StoreSnapshot
        /// The selected keys: in the request's sort order when ``IndexPlan/isInSortOrder``.
        var plan: IndexPlan
        /// Whether the keys are exactly the committed rows the predicate matches (no check needed).
        var isExact: Bool
        /// Whether SQL applied the request's offset and limit.
        var appliedLimit: Bool
    }

    /// The committed row of `id` (of the entity at `entityIndex`): from the cache, else read from
    /// a querying store and cached; `nil` if the store holds none (or cannot be read).
    func committedRow(of id: ObjectID, entityIndex: Int) -> EntityTable.Row? {
        if let row = state.withLock({ $0.snapshot.tables[entityIndex][id.key] }) { return row }
        guard let querying else { return nil }
        let snapshot = try? commitLock.withLock { _ in try loadRows([entityIndex: [id.key]], from: querying) }
        return snapshot?.tables[entityIndex][id.key]
    }

    /// Reads the rows of `keys` (by entity index) that the cache lacks from a querying store.
    ///
    /// - Returns: The committed state holding them.
    func prefetchRows(_ keys: [Int: [Int64]]) throws -> StoreSnapshot {
        guard let querying else { return snapshot() }
        return try commitLock.withLock { _ in try loadRows(keys, from: querying) }
    }

    /// Whether the store holds an object with `id` now.
    func containsCommittedObject(_ id: ObjectID, entityIndex: Int) -> Bool {
        committedRow(of: id, entityIndex: entityIndex) != nil
    }

    /// The number of committed objects of the entity at `entityIndex`.
    func committedCount(of entityIndex: Int) throws -> Int {
        guard let querying else { return snapshot().tables[entityIndex].count }
        let info = model.infos[entityIndex]
        let layout = try querying.layout()
        return try querying.withDatabase { database in
            let translation = SQLFetchTranslation(
                predicate: nil, sort: [], entity: info, schema: layout, dialect: database.dialect)
            return Int(try database.rows(translation.count()).first?.first?.integer ?? 0)
        }
    }

    /// The number of committed objects `predicate` matches, counted by the store when its SQL
    /// says exactly which; `nil` when the in-memory engine must decide.
    func committedCount(of info: EntityInfo, matching predicate: PredicateExpression) throws -> Int? {
        guard let querying else { return nil }
        let layout = try querying.layout()
        return try querying.withDatabase { database -> Int? in
            let translation = SQLFetchTranslation(
                predicate: predicate, sort: [], entity: info, schema: layout, dialect: database.dialect)
            guard translation.isExact else { return nil }
            return Int(try database.rows(translation.count(), translation.bindings).first?.first?.integer ?? 0)
        }
    }

    /// Asks a querying store for the keys a fetch selects, and reads their rows (and those of
    /// `alsoLoading`, the keys of objects with pending changes) into the cache. With `limit`,
    /// SQL applies the limit and `offset` when it selects exactly and in order; the caller passes
    /// it only when nothing pending can change the result.
    ///
    /// - Returns: `nil` for a store that does not answer queries.
    func narrow(
        _ info: EntityInfo, predicate: PredicateExpression?, sort: [FetchSortDescriptor], limit: Int?, offset: Int,
        alsoLoading extra: [Int64]
    ) throws -> Narrowing? {
        guard let querying else { return nil }
        let layout = try querying.layout()
        if extra.isEmpty, let narrowing = try selectRows(info, predicate, sort, limit, offset, layout, querying) {
            return narrowing
        }
        var appliedLimit = false
        var isExact = false
        var isInSortOrder = false
        let (query, bindings) = try querying.withDatabase { database -> (String, [SQLValue]) in
            let translation = SQLFetchTranslation(
                predicate: predicate, sort: sort, entity: info, schema: layout, dialect: database.dialect)
            isExact = translation.isExact
            isInSortOrder = translation.order != nil
            appliedLimit = limit != nil && translation.isExact && translation.order != nil
            let columns = layout.rowColumns(
                entityIndex: info.index, alias: SQLFetchTranslation.alias, database.dialect)
            return (
                translation.select(columns, limit: appliedLimit ? limit : nil, offset: appliedLimit ? offset : 0),
                translation.bindings
            )
        }
        // The keys and their rows in one query (one read transaction): a commit of another
        // process cannot make the fetch see the keys of one state and the rows of another. The
        // rows of objects with pending changes are read after (their changes override them).
        let (keys, snapshot) = try commitLock.withLock { _ in
            let rows = try querying.rows(entityIndex: info.index, query: query, bindings: bindings)
            let selected = Set(rows.map(\.key))
            let others = extra.filter { !selected.contains($0) }
            let extraRows = others.isEmpty ? [] : try querying.rows(entityIndex: info.index, keys: others)
            return (rows.map(\.key), cache([info.index: rows + extraRows]))
        }
        return Narrowing(
            snapshot: snapshot, plan: IndexPlan(keys: keys, isInSortOrder: isInSortOrder), isExact: isExact,
            appliedLimit: appliedLimit)
    }

    /// ``narrow(_:predicate:sort:limit:offset:alsoLoading:)`` in one query that reads the rows
    /// themselves, when the store's SQL selects exactly the objects and their order; `nil` when
    /// it does not.
    private func selectRows(
        _ info: EntityInfo, _ predicate: PredicateExpression?, _ sort: [FetchSortDescriptor], _ limit: Int?,
        _ offset: Int, _ layout: SQLStoreSchema, _ querying: any QueryingStore
    ) throws -> Narrowing? {
        let found = try querying.withDatabase { database -> (String, [SQLValue])? in
            let translation = SQLFetchTranslation(
                predicate: predicate, sort: sort, entity: info, schema: layout, dialect: database.dialect)
            guard translation.isExact, translation.order != nil else { return nil }
            let columns = layout.rowColumns(
                entityIndex: info.index, alias: SQLFetchTranslation.alias, database.dialect)
            return (translation.select(columns, limit: limit, offset: offset), translation.bindings)
        }
        guard let (query, bindings) = found else { return nil }
        let (keys, snapshot) = try commitLock.withLock { _ in
            let rows = try querying.rows(entityIndex: info.index, query: query, bindings: bindings)
            return (rows.map(\.key), cache([info.index: rows]))
        }
        return Narrowing(
            snapshot: snapshot, plan: IndexPlan(keys: keys, isInSortOrder: true), isExact: true,
            appliedLimit: limit != nil)
    }

    /// The keys of the committed objects a fetch selects, in order, offset and limited, when a
    /// querying store's SQL selects exactly those (without reading their rows); `nil` when the
    /// in-memory engine must take part, or for other stores.
    func exactKeys(
        _ info: EntityInfo, predicate: PredicateExpression?, sort: [FetchSortDescriptor], limit: Int?, offset: Int
    ) throws -> [Int64]? {
        guard let querying else { return nil }
        let layout = try querying.layout()
        return try querying.withDatabase { database -> [Int64]? in
            let translation = SQLFetchTranslation(
                predicate: predicate, sort: sort, entity: info, schema: layout, dialect: database.dialect)
            guard translation.isExact, translation.order != nil else { return nil }
            var keys: [Int64] = []
            try database.forEachRow(translation.selectKeys(limit: limit, offset: offset), translation.bindings) { row in
                if let key = try SQLStoreSchema.selectedKey(row.column(0)) { keys.append(key) }
            }
            return keys
        }
    }

    /// Every committed object, read from a querying store into the cache (for the operations
    /// that work on whole tables: batch requests, ``PersistentContainer/committedSnapshot()``).
    /// Call it holding the commit lock.
    func loadEverything(from querying: any QueryingStore) throws -> StoreSnapshot {
        let all = try querying.readAll()
        return state.withLock { state in
            var loaded = all
            loaded.metadata = state.snapshot.metadata
            for index in loaded.tables.indices {
                loaded.tables[index].nextKey = max(loaded.tables[index].nextKey, state.snapshot.tables[index].nextKey)
            }
            state.snapshot = loaded
            state.uniqueIndexes = [:]
            return loaded
        }
    }

    /// Everything committed now: the snapshot, or for a querying store every row it holds (read
    /// without filling the cache).
    ///
    /// - Throws: A querying store's read errors, typed (`.storeClosed` once it is closed).
    func wholeSnapshot() throws -> StoreSnapshot {
        guard let querying else { return snapshot() }
        return try commitLock.withLock { _ in
            let cached = snapshot()
            var all = try querying.readAll()
            all.metadata = cached.metadata
            for index in all.tables.indices {
                all.tables[index].nextKey = max(all.tables[index].nextKey, cached.tables[index].nextKey)
            }
            return all
        }
    }

    /// Reads the rows of `keys` (by entity index) that the cache lacks, and those of
    /// `refreshing` again (a row the store no longer holds then leaves the cache), and returns the
    /// committed state holding them. A cache that would grow past its limit is emptied first, and
    /// one that still holds more (a single read larger than the limit) is emptied after. Call it
    /// holding the commit lock, so that no commit publishes rows between the read and the
    /// caching.
    func loadRows(_ keys: [Int: [Int64]], refreshing: [Int: [Int64]] = [:], from querying: any QueryingStore) throws
        -> StoreSnapshot
    {
        let current = state.withLock { $0.snapshot }
        var wanted: [(entityIndex: Int, keys: [Int64], refreshed: Set<Int64>)] = []
        for entityIndex in Set(keys.keys).union(refreshing.keys).sorted() {
            let refreshed = Set(refreshing[entityIndex] ?? [])
            var seen = refreshed
            var missing = Array(refreshed)
            for key in keys[entityIndex] ?? [] where !current.tables[entityIndex].contains(key) {
                if seen.insert(key).inserted { missing.append(key) }
            }
            if !missing.isEmpty { wanted.append((entityIndex, missing, refreshed)) }
        }
        guard !wanted.isEmpty else { return current }
        let loaded = try wanted.map { try querying.rows(entityIndex: $0.entityIndex, keys: $0.keys) }
        var gone: [Int: [Int64]] = [:]
        for (wanted, rows) in zip(wanted, loaded) where !wanted.refreshed.isEmpty {
            let found = Set(rows.map(\.key))
            gone[wanted.entityIndex] = wanted.refreshed.filter { !found.contains($0) }
        }
        return cache(
            Dictionary(zip(wanted.map(\.entityIndex), loaded), uniquingKeysWith: { first, _ in first }), removing: gone)
    }

    /// Puts rows read from a querying store (by entity index) in the cache, and takes out the
    /// rows of `gone` (keys the store no longer holds); returns the committed state holding them.
    /// A cache that would grow past its limit is emptied first, and one that still holds more (a
    /// single read larger than the limit) is emptied after. Call it holding the commit lock.
    func cache(_ loaded: [Int: [(key: Int64, row: EntityTable.Row)]], removing gone: [Int: [Int64]] = [:])
        -> StoreSnapshot
    {
        state.withLock { state in
            let incoming = loaded.values.reduce(0) { $0 + $1.count }
            if state.snapshot.count + incoming > state.rowCacheLimit {
                state.snapshot = Self.withoutRows(state.snapshot)
                state.uniqueIndexes = [:]
            }
            for (entityIndex, keys) in gone {
                for key in keys { state.snapshot.tables[entityIndex].set(nil, forKey: key) }
            }
            for (entityIndex, rows) in loaded {
                for (key, row) in rows { state.snapshot.tables[entityIndex].set(row, forKey: key) }
            }
            let holding = state.snapshot
            // More rows than the cache keeps: the caller's copy holds them while it needs them.
            if holding.count > state.rowCacheLimit { state.snapshot = Self.withoutRows(holding) }
            return holding
        }
    }

    /// `snapshot` without its rows: the same next keys and metadata.
    static func withoutRows(_ snapshot: StoreSnapshot) -> StoreSnapshot {
        var empty = StoreSnapshot(rowCacheOf: snapshot.model)
        empty.metadata = snapshot.metadata
        for index in empty.tables.indices { empty.tables[index].nextKey = snapshot.tables[index].nextKey }
        return empty
    }
}
