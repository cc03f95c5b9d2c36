extension ManagedContext {
    /// The objects a fetch request selects: those matching its predicate, in the order of its
    /// sort descriptors (key (insertion) order without any, and for ties), from its offset, at
    /// most its limit.
    ///
    /// With `includesPendingChanges` (the default), the fetch sees this context's unsaved
    /// changes: inserts of the entity are candidates, objects pending deletion are left out, and
    /// changed objects are matched and sorted on their current values. Without it, only the
    /// store's committed rows count. Objects are created only for the rows returned.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.predicate = try FetchPredicate(format: "basket.label == %@", "Kitchen")
    /// request.sortDescriptors = [SortDescriptor(key: "price", ascending: false)]
    /// let fruits = try context.fetch(request)
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.invalidFetchRequest` if the request's entity is not in
    ///   the model or is not represented by `Result`, or a sort descriptor cannot sort it;
    ///   `.unknownKey`, `.typeMismatch` or `.invalidPredicate` if the predicate does not fit
    ///   the entity (see ``FetchPredicate``).
    /// - Complexity: O(*n*) for *n* objects of the entity to filter, plus O(*m* log *m*) to
    ///   sort *m* matches. The predicate is compiled once per fetch.
    ///
    /// Core Data: `NSManagedObjectContext.fetch(_:)`.
    public func fetch<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [Result] {
        mergePendingSaves()
        let info = try request.entity(in: model)
        // `entity(in:)` checked that the entity's class is `Result` or a subclass of it.
        let materializing = info.materializingDescription
        let objects = try select(FetchSelection(request), info: info) { candidate, _ in
            object(for: candidate, info: info, materializing: materializing)
        }
        return objects.downcast(to: Result.self)
    }

    /// The candidates a fetch request selects (filtered, sorted, offset and limited), each made
    /// into an element by `make` (with the resolver of related objects' current values): the one
    /// engine behind object, ID and dictionary fetches.
    ///
    /// Not generic over the request's result type, so that callers get a specialized loop (a
    /// generic one looked up `Array<Element>`'s metadata for each element it appended).
    func select<Element>(
        _ request: FetchSelection, info: EntityInfo,
        _ make: (FetchCandidate, PredicateResolver) -> Element
    ) throws -> [Element] {
        var scan = makeScan(of: info, includingPendingChanges: request.includesPendingChanges)
        let predicate = try request.predicate.map {
            try CompiledPredicate($0, entity: info, model: model, withSwiftPart: true)
        }
        let swiftTerm = try request.predicate.flatMap { try CompiledSwiftTerm($0, entity: info, model: model) }
        var swiftFailure: (any Error)?
        let sort =
            try request.sortDescriptors.isEmpty
            ? nil : CompiledSort(request.sortDescriptors, entity: info, model: model)
        let limit = request.fetchLimit > 0 ? request.fetchLimit : Int.max
        let offset = max(0, request.fetchOffset)
        let resolver = scan.resolver(in: self)
        var inSortOrder = false
        if let predicate, let plan = IndexPlan(predicate, table: scan.table, sort: sort) {
            inSortOrder = scan.useCandidates(plan)
        }
        if predicate == nil, swiftTerm == nil, sort == nil, offset == 0, scan.readsCommittedRowsOnly {
            return selectAll(of: scan.table, limit: limit, resolver: resolver, make)
        }
        guard let sort, !inSortOrder else {
            var results: [Element] = []
            if predicate == nil, swiftTerm == nil, scan.candidateKeys == nil {
                results.reserveCapacity(min(limit, max(0, scan.table.count + scan.pending.count - offset)))
            }
            var skipped = 0
            forEachCandidate(of: scan, filter: predicate, mayStopEarly: limit < Int.max || swiftTerm != nil) {
                candidate in
                if let predicate, !candidate.isKnownMatch, !predicate.matches(candidate, resolver: resolver) {
                    return true
                }
                if let swiftTerm {
                    guard let matches = swiftTermMatches(candidate, swiftTerm, resolver, failure: &swiftFailure) else {
                        return false
                    }
                    if !matches { return true }
                }
                if skipped < offset {
                    skipped += 1
                    return true
                }
                results.append(make(candidate, resolver))
                return results.count < limit
            }
            if let swiftFailure { throw swiftFailure }
            return results
        }
        var matches: [FetchCandidate] = []
        forEachCandidate(of: scan, filter: predicate, mayStopEarly: swiftTerm != nil) { candidate in
            if candidate.isKnownMatch || predicate?.matches(candidate, resolver: resolver) ?? true {
                if let swiftTerm {
                    guard let matches = self.swiftTermMatches(candidate, swiftTerm, resolver, failure: &swiftFailure)
                    else {
                        return false
                    }
                    if !matches { return true }
                }
                matches.append(candidate)
            }
            return true
        }
        if let swiftFailure { throw swiftFailure }
        // Stable: ties keep key order, which `matches` is in.
        let order =
            sort.columnOrder(of: matches)
            ?? {
                let keys = matches.map { sort.sortValues(of: $0.values, key: $0.key, resolver: resolver) }
                return Array(keys.indices).sorted { lhs, rhs in
                    let comparison = sort.compare(keys[lhs], keys[rhs])
                    return comparison != 0 ? comparison < 0 : lhs < rhs
                }
            }()
        return order.dropFirst(offset).prefix(limit).map { make(matches[$0], resolver) }
    }

    /// Every row of `table` in key order, at most `limit`, each made into an element: a fetch
    /// without predicate, sort or offset when the context has no pending changes of the entity
    /// (W3's "load every object"). The general loop's per-row bookkeeping (pending inserts to
    /// merge, overrides to look up) cost reference counting on every row.
    private func selectAll<Element>(
        of table: EntityTable, limit: Int, resolver: PredicateResolver,
        _ make: (FetchCandidate, PredicateResolver) -> Element
    ) -> [Element] {
        var results: [Element] = []
        results.reserveCapacity(min(limit, table.count))
        guard limit > 0 else { return results }
        table.forEachWhile { key, row in
            results.append(make(FetchCandidate(key: key, values: row.values, version: row.version), resolver))
            return results.count < limit
        }
        return results
    }

    /// The number of objects a fetch request would return, without creating them.
    ///
    /// - Throws: as ``fetch(_:)`` (sort descriptors are not used).
    /// - Complexity: without a predicate, O(*p*) for *p* pending changes when the request
    ///   includes them and O(1) otherwise; with one, O(*n*) for *n* objects of the entity.
    ///
    /// Core Data: `NSManagedObjectContext.count(for:)`.
    public func count<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> Int {
        mergePendingSaves()
        let info = try request.entity(in: model)
        let total: Int
        if let predicate = request.predicate {
            let compiled = try CompiledPredicate(predicate, entity: info, model: model, withSwiftPart: true)
            let swiftTerm = try CompiledSwiftTerm(predicate, entity: info, model: model)
            var scan = makeScan(of: info, includingPendingChanges: request.includesPendingChanges)
            if let plan = IndexPlan(compiled, table: scan.table, sort: nil) { scan.useCandidates(plan) }
            let resolver = scan.resolver(in: self)
            var matches = 0
            var swiftFailure: (any Error)?
            forEachCandidate(of: scan, filter: compiled, mayStopEarly: swiftTerm != nil) { candidate in
                guard candidate.isKnownMatch || compiled.matches(candidate, resolver: resolver) else { return true }
                if let swiftTerm {
                    guard let result = self.swiftTermMatches(candidate, swiftTerm, resolver, failure: &swiftFailure)
                    else {
                        return false
                    }
                    if !result { return true }
                }
                matches += 1
                return true
            }
            if let swiftFailure { throw swiftFailure }
            total = matches
        } else {
            let table = coordinator.snapshot().tables[info.index]
            var count = table.count
            if parent != nil {
                // A child: every level's live inserts, less the stored rows some level deleted.
                let (pending, overrides) = layeredChanges(of: info, includingOwn: request.includesPendingChanges)
                count += pending.count
                for (key, object) in overrides where object.isDeleted && table[key] != nil { count -= 1 }
            } else if request.includesPendingChanges {
                count += inserted.reduce(0) { $0 + ($1.info.index == info.index ? 1 : 0) }
                count -= deleted.reduce(0) {
                    $0 + ($1.info.index == info.index && table[$1.objectKey] != nil ? 1 : 0)
                }
            }
            total = count
        }
        let afterOffset = max(0, total - max(0, request.fetchOffset))
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    // MARK: - Candidates

    private func makeScan(of info: EntityInfo, includingPendingChanges: Bool) -> FetchScan {
        let snapshot = coordinator.snapshot()
        var pending: [ManagedObject] = []
        var overrides: [Int64: ManagedObject] = [:]
        if parent != nil {
            (pending, overrides) = layeredChanges(of: info, includingOwn: includingPendingChanges)
        } else if includingPendingChanges {
            pending = inserted.filter { $0.info.index == info.index }.sorted { $0.objectKey < $1.objectKey }
            for object in touched where object.info.index == info.index { overrides[object.objectKey] = object }
            for object in deleted where object.info.index == info.index { overrides[object.objectKey] = object }
        }
        return FetchScan(
            info: info, snapshot: snapshot, table: snapshot.tables[info.index],
            includesPendingChanges: includingPendingChanges, pending: pending, overrides: overrides)
    }

    /// Calls `body` with each candidate of the scan in key order, committed rows and pending
    /// inserts merged, objects pending deletion skipped; stops when `body` returns false.
    ///
    /// With a row-local `filter`, committed rows without pending changes that it rejects are
    /// skipped before they are copied, and those it passes are marked `isKnownMatch` (the
    /// caller checks the other candidates it gets).
    /// `mayStopEarly`: whether `body` may stop before the end (a fetch limit); if not, an
    /// index's candidates are filtered in one pass rather than in growing segments.
    private func forEachCandidate(
        of scan: FetchScan, filter: CompiledPredicate? = nil, mayStopEarly: Bool = true,
        _ body: (FetchCandidate) -> Bool
    ) {
        let filter = filter?.isRowLocal == true ? filter.map { RowProgram($0, skipping: scan.impliedTests) } : nil
        // Whether the committed rows visited passed `filter` (the whole predicate for them).
        let rowsMatch = filter != nil
        let pending = scan.pending
        var next = 0
        var stopped = false
        func visit(_ key: Int64, _ row: EntityTable.Row) -> Bool {
            while next < pending.count, pending[next].objectKey < key {
                let object = pending[next]
                next += 1
                guard body(FetchCandidate(object)) else {
                    stopped = true
                    return false
                }
            }
            var candidate = FetchCandidate(key: key, values: row.values, version: row.version, isKnownMatch: rowsMatch)
            if !scan.overrides.isEmpty, let object = scan.overrides[key] {
                if object.flags.isDeleted { return true }
                candidate = FetchCandidate(object)
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
                overrides.isEmpty ? scan.table.prefixExclusions(for: filter, testingRows: rowsToTest) : nil
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
                including: { key, values in
                    (!overrides.isEmpty && overrides[key] != nil) || filter.matches(values)
                }, visit)
        } else {
            scan.table.forEachWhile(visit)
        }
        guard !stopped else { return }
        for object in pending[next...] {
            guard body(FetchCandidate(object)) else { return }
        }
    }

    /// Whether a candidate matches the Swift part of a predicate (made into an object for it);
    /// `nil`, with `failure` set, if the Swift predicate threw.
    private func swiftTermMatches(
        _ candidate: FetchCandidate, _ term: CompiledSwiftTerm, _ resolver: PredicateResolver,
        failure: inout (any Error)?
    ) -> Bool? {
        do {
            return try term.matches(candidate.values, key: candidate.key, resolver: resolver) {
                object(for: candidate, info: term.entity)
            }
        } catch {
            failure = error
            return nil
        }
    }

    /// The object for a candidate; `materializing` is `info.materializingDescription`, made
    /// once per fetch rather than once per object.
    private func object(
        for candidate: FetchCandidate, info: EntityInfo, materializing: EntityDescription? = nil
    ) -> ManagedObject {
        // A child context's candidates may be its ancestors' objects: it gets its own instance.
        if let object = candidate.object, object.context === self { return object }
        return materialize(
            info: info, key: candidate.key, row: EntityTable.Row(version: candidate.version, values: candidate.values),
            materializing: materializing)
    }
}

/// What ``ManagedContext/select(_:info:_:)`` needs of a fetch request, without its result type.
struct FetchSelection {
    let predicate: FetchPredicate?
    let sortDescriptors: [SortDescriptor]
    let fetchLimit: Int
    let fetchOffset: Int
    let includesPendingChanges: Bool

    init<Result>(_ request: FetchRequest<Result>) {
        predicate = request.predicate
        sortDescriptors = request.sortDescriptors
        fetchLimit = request.fetchLimit
        fetchOffset = request.fetchOffset
        includesPendingChanges = request.includesPendingChanges
    }
}

extension Array where Element == ManagedObject {
    /// The same objects typed as `Result`, every one of which is known to be a `Result`.
    ///
    /// O(1): an array of class references has the same representation whatever its element
    /// class, and the standard library's own checked downcast (`as!`) reuses the buffer the same
    /// way once it has checked each element; the fetch checked the entity's class instead.
    fileprivate func downcast<Result: ManagedObject>(to type: Result.Type) -> [Result] {
        assert(allSatisfy { $0 is Result }, "Fetched objects are instances of the request's result type.")
        return unsafeBitCast(self, to: [Result].self)
    }
}

/// One fetch's view of an entity: the committed table of a snapshot, and the context's pending
/// inserts and changed or deleted objects of the entity.
private struct FetchScan {
    let info: EntityInfo
    let snapshot: StoreSnapshot
    let table: EntityTable
    let includesPendingChanges: Bool
    /// Unsaved inserts of the entity, by key.
    let pending: [ManagedObject]
    /// Changed or deleted saved objects of the entity, by key.
    let overrides: [Int64: ManagedObject]
    /// The committed rows to consider when an index narrowed them (ascending, or in sort order
    /// when there are no pending changes to merge); `nil`: all.
    var candidateKeys: [Int64]?
    /// Conjuncts the plan's committed candidates satisfy (see ``IndexPlan/impliedTests``).
    var impliedTests: [ValueTest] = []

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

    /// The current values of any object, for key paths through relationships: the context's
    /// (unless deleted) when it includes pending changes, else the committed row's.
    func resolver(in context: ManagedContext) -> PredicateResolver {
        let snapshot = self.snapshot
        let model = snapshot.model
        let includesPendingChanges = self.includesPendingChanges
        return PredicateResolver { [unowned context] id in
            // Only objects with unsaved changes override the committed row; an unchanged
            // registered object may be older than the snapshot (another context saved since).
            // A child context sees its ancestors' unsaved changes as committed.
            var level = includesPendingChanges ? context : context.parent
            while let current = level {
                if let object = current.registry[id], object.hasUnsavedState {
                    return object.flags.isDeleted || object.flags.isMissing ? nil : object.values
                }
                level = current.parent
            }
            guard let info = model.info(named: id.entityName) else { return nil }
            return snapshot.tables[info.index][id.key]?.values
        }
    }
}

extension CompiledPredicate {
    /// Whether a fetch candidate matches; its ID is made only for predicates that compare `SELF`.
    fileprivate func matches(_ candidate: FetchCandidate, resolver: PredicateResolver) -> Bool {
        let id = needsObjectID ? ObjectID(entityName: entity.name, key: candidate.key) : nil
        return matches(candidate.values, objectID: id, resolver: resolver)
    }
}

/// An object a fetch considers: a committed row or a registered object, with its current values.
struct FetchCandidate {
    let key: Int64
    let values: [StoreValue]
    /// The committed row's version (for a row), or 0.
    let version: Int64
    /// The registered object whose values these are (a pending insert or a changed object).
    let object: ManagedObject?
    /// Whether the scan already found that the values match the fetch's predicate.
    let isKnownMatch: Bool

    init(key: Int64, values: [StoreValue], version: Int64, isKnownMatch: Bool = false) {
        self.key = key
        self.values = values
        self.version = version
        self.object = nil
        self.isKnownMatch = isKnownMatch
    }

    init(_ object: ManagedObject) {
        self.key = object.objectKey
        self.values = object.values
        self.version = object.version
        self.object = object
        self.isKnownMatch = false
    }
}
