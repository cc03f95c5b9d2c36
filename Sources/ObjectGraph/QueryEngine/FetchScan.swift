/// One fetch's view of an entity: the committed table of a snapshot, and a context's pending
/// inserts and changed or deleted objects of the entity, as candidates.
///
/// The in-memory query engine's executor: ``forEachCandidate(filter:mayStopEarly:_:)`` merges
/// the committed rows (narrowed by an ``IndexPlan``, filtered by a ``RowProgram`` and prefix
/// columns) with the pending ones in key order.
struct FetchScan {
    let info: EntityInfo
    let snapshot: StoreSnapshot
    let table: EntityTable
    let includesPendingChanges: Bool
    /// Unsaved inserts of the entity, in key order.
    let pending: [FetchCandidate]
    /// Changed or deleted saved objects of the entity, by key (a deleted one is marked
    /// ``FetchCandidate/isPendingDeletion``).
    let overrides: [Int64: FetchCandidate]
    /// The committed rows to consider when an index narrowed them (ascending, or in sort order
    /// when there are no pending changes to merge); `nil`: all.
    var candidateKeys: [Int64]?
    /// Conjuncts the plan's committed candidates satisfy (see ``IndexPlan/impliedTests``).
    var impliedTests: [ValueMatcher] = []
    /// Whether every committed candidate is known to match the predicate (a querying store
    /// selected exactly those): only pending ones are tested.
    var committedCandidatesMatch = false

    /// Whether the scan's candidates are exactly the committed rows: no pending inserts, no
    /// changed or deleted objects to override them, no index candidates.
    var readsCommittedRowsOnly: Bool { pending.isEmpty && overrides.isEmpty && candidateKeys == nil }

    /// Considers only the plan's committed rows and those with pending changes (whose current
    /// values the index does not know). Returns whether the candidates are in the request's
    /// sort order: the plan's are and the scan has no pending changes to merge in key order.
    @discardableResult
    mutating func useCandidates(_ plan: IndexPlan) -> Bool {
        var keys = plan.keys
        impliedTests = plan.impliedTests
        if plan.isInSortOrder, pending.isEmpty, overrides.isEmpty {
            candidateKeys = keys
            return true
        }
        if plan.isInSortOrder { keys.sort() }
        if !overrides.isEmpty {
            keys += overrides.keys
            keys.sort()
            var unique: [Int64] = []
            unique.reserveCapacity(keys.count)
            for key in keys where unique.last != key { unique.append(key) }
            keys = unique
        }
        candidateKeys = keys
        return false
    }

    /// Calls `body` with each candidate of the scan in key order, committed rows and pending
    /// inserts merged, objects pending deletion skipped; stops when `body` returns false.
    ///
    /// With a row-local `filter`, committed rows without pending changes that it rejects are
    /// skipped before they are copied, and those it passes are marked `isKnownMatch` (the
    /// caller checks the other candidates it gets).
    /// `mayStopEarly`: whether `body` may stop before the end (a fetch limit); if not, an
    /// index's candidates are filtered in one pass rather than in growing segments.
    func forEachCandidate(
        filter: CompiledPredicate? = nil, mayStopEarly: Bool = true, _ body: (FetchCandidate) -> Bool
    ) {
        let scan = self
        let filter =
            filter?.isRowLocal == true && !scan.committedCandidatesMatch
            ? filter.map { RowProgram($0, skipping: scan.impliedTests) } : nil
        // Whether the committed rows visited passed `filter` (the whole predicate for them).
        let rowsMatch = filter != nil || scan.committedCandidatesMatch
        let pending = scan.pending
        var next = 0
        var stopped = false
        func visit(_ key: Int64, _ row: EntityTable.Row) -> Bool {
            while next < pending.count, pending[next].key < key {
                let insert = pending[next]
                next += 1
                guard body(insert) else {
                    stopped = true
                    return false
                }
            }
            var candidate = FetchCandidate(key: key, values: row.values, version: row.version, isKnownMatch: rowsMatch)
            if !scan.overrides.isEmpty, let changed = scan.overrides[key] {
                if changed.isPendingDeletion { return true }
                candidate = changed
            }
            guard body(candidate) else {
                stopped = true
                return false
            }
            return true
        }
        let overrides = scan.overrides
        // Prefix columns describe committed values: rows with pending changes must not be
        // excluded by them. A scan that may stop early uses a column but does not build one
        // (building reads every row).
        let rowsToTest = mayStopEarly ? 0 : scan.candidateKeys?.count ?? scan.table.count
        let exclusions =
            filter.flatMap { filter in
                overrides.isEmpty
                    ? scan.table.prefixExclusions(for: filter.columnTests, testingRows: rowsToTest)
                        + scan.table.signatureExclusions(for: filter.signatureTests, testingRows: rowsToTest) : nil
            } ?? []
        if let keys = scan.candidateKeys, let filter {
            // The candidates are filtered in segments (growing, so that a fetch that stops
            // early reads few rows), each segment's rows read in key order.
            var start = 0
            var segment = mayStopEarly ? 256 : keys.count
            candidates: while start < keys.count {
                let end = min(keys.count, start + segment)
                let kept = scan.table.keys(keys[start..<end], excluding: exclusions) { key, values in
                    (!overrides.isEmpty && overrides[key] != nil) || filter.matches(values)
                }
                for key in kept {
                    guard let row = scan.table[key] else { continue }
                    guard visit(key, row) else { break candidates }
                }
                start = end
                segment *= 4
            }
        } else if let keys = scan.candidateKeys {
            for (position, key) in keys.enumerated() {
                if position % EntityTable.touchBlock == 0 {
                    scan.table.touch(keys[position..<min(keys.count, position + EntityTable.touchBlock)])
                }
                guard let row = scan.table[key] else { continue }
                guard visit(key, row) else { break }
            }
        } else if let filter {
            scan.table.forEachWhile(
                excluding: exclusions,
                including: { key, values, holding in
                    (!overrides.isEmpty && overrides[key] != nil) || filter.matches(values, holding: holding)
                }, visit)
        } else {
            scan.table.forEachWhile(visit)
        }
        guard !stopped else { return }
        for insert in pending[next...] {
            guard body(insert) else { return }
        }
    }

    /// Every committed row in key order, at most `limit`, each made into an element: a fetch
    /// without predicate, sort or offset when the context has no pending changes of the entity
    /// (W3's "load every object"). The general loop's per-row bookkeeping (pending inserts to
    /// merge, overrides to look up) cost reference counting on every row.
    func selectAll<Element>(
        limit: Int, resolver: PredicateResolver,
        _ make: (FetchCandidate, PredicateResolver) -> Element
    ) -> [Element] {
        let table = self.table
        var results: [Element] = []
        results.reserveCapacity(min(limit, table.count))
        guard limit > 0 else { return results }
        table.forEachWhile { key, row in
            results.append(make(FetchCandidate(key: key, values: row.values, version: row.version), resolver))
            return results.count < limit
        }
        return results
    }
}
