extension StoreCoordinator {
    /// One save's writes, as the context hands them over.
    struct Commit {
        struct Write {
            let entityIndex: Int
            let key: Int64
            var values: [StoreValue]
            /// The version the context read; 0 for an insert.
            var expectedVersion: Int64
            /// The values the context read, for property-level merges; `nil` for inserts.
            let original: [StoreValue]?
            /// Set when a merge policy rewrote the write, so it no longer matches the context.
            var isResolved = false
        }
        var inserted: Inserts = []
        var updated: [Write] = []
        var deleted: [Write] = []
        /// Entities (by index) every committed object of which this commit deletes, in one step,
        /// before its other writes: a delete of everything that visits no rows.
        var emptied: [Int] = []
        /// The keys of the `emptied` entities' objects, when the committed state does not hold
        /// their rows (a querying store's cache); `nil`: read from the committed state.
        var emptiedKeyRuns: [Int: [Range<Int64>]]?
        var policy: MergePolicy = .error
        /// The context that saves, for the save notification.
        var origin = ContextIdentifier(number: 0, name: nil)
    }

    /// What became of one object of a commit.
    enum Outcome {
        /// Written under this ID (another one for an inserted duplicate merged into a stored
        /// object), with this version and these values.
        case saved(ObjectID, version: Int64, values: [StoreValue])
        /// Deleted.
        case deleted
        /// The merge policy dropped this context's change; the stored state.
        case refreshed(version: Int64, values: [StoreValue])
        /// The object no longer exists in the store; the merge policy dropped this context's change.
        case gone
    }

    /// Resolves conflicts by the commit's merge policy, enforces uniqueness constraints and
    /// referential integrity, asks the store to make the result durable, and only then publishes
    /// it.
    ///
    /// - Returns: The outcome of each written object, by the ID the context gave it.
    /// - Throws: `PersistenceError.Code.conflict` listing every unresolved conflict, or the
    ///   store's error; in both cases nothing changed.
    @discardableResult
    func commit(_ commit: Commit) throws -> [ObjectID: Outcome] {
        try self.commit(preparing: { _ in commit }).outcomes
    }

    /// ``commit(_:)`` of the commit that `prepare` makes from the committed state, read under
    /// the commit lock (so nothing commits between the two): for batch requests. `prepare`
    /// returns `nil` to commit nothing (the store is not asked to save). With `alwaysNotifies`,
    /// the save notification is built and returned even when nobody listens. `readsWholeStore`:
    /// `prepare` reads whole tables, which a querying store then reads in full first.
    func commit(
        preparing prepare: (StoreSnapshot) throws -> Commit?, alwaysNotifies: Bool = false,
        readsWholeStore: Bool = false
    ) throws -> (outcomes: [ObjectID: Outcome], notification: SaveNotification?) {
        // The replaced state, when this commit deleted many rows: freed in the background.
        var replaced: StoreSnapshot?
        defer { Self.releaseInBackground(&replaced) }
        return try commitLock.withLock { _ in
            var (current, nextKeys, indexes) = state.withLock { ($0.snapshot, $0.nextKeys, $0.uniqueIndexes) }
            if let querying, readsWholeStore { current = try loadEverything(from: querying) }
            guard let commit = try prepare(current) else { return ([:], nil) }
            if let querying {
                // The cache holds some rows only: the plan gets those it looks at, and builds
                // its uniqueness indexes from them.
                if !readsWholeStore { current = try loadWorkingSet(of: commit, from: querying) }
                indexes = [:]
            }
            var plan = CommitPlan(model: model, current: current, policy: commit.policy, uniqueIndexes: indexes)
            try plan.resolveStaleObjects(commit)
            plan.apply()
            try plan.enforceUniqueness()
            plan.remapMergedReferences()
            plan.clearReferencesToDeletedObjects()
            plan.dropReferencesDeletedElsewhere()
            try plan.checkReferences()
            for index in plan.next.tables.indices where nextKeys[index] > plan.next.tables[index].nextKey {
                plan.next.tables[index].nextKey = nextKeys[index]
            }
            try store.save(plan.changeSet(withRecords: !(store is any SnapshotPersistingStore)))
            let published = plan.next
            let publishedIndexes = querying == nil ? plan.uniqueIndexes : [:]
            state.withLock { state in
                state.snapshot =
                    querying != nil && published.count > state.rowCacheLimit ? Self.withoutRows(published) : published
                state.uniqueIndexes = publishedIndexes
            }
            if !plan.emptied.isEmpty || plan.deletes.count >= Self.backgroundReleaseThreshold { replaced = current }
            let outcomes = plan.finalOutcomes()
            let notification = plan.publish(to: broadcaster, origin: commit.origin, always: alwaysNotifies)
            return (outcomes, notification)
        }
    }
}
