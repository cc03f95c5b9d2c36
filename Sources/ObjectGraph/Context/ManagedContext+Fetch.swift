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
        try mergePendingSaves()
        let info = try request.entity(in: model)
        if request.includesSubentities, info.hasSubentities { return try fetchHierarchy(request, of: info) }
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
        var offset = max(0, request.fetchOffset)
        var inSortOrder = false
        if coordinator.querying != nil {
            // The store selects (and where it can, sorts and limits) the committed candidates.
            let pushesLimit = scan.pending.isEmpty && scan.overrides.isEmpty && swiftTerm == nil && limit < Int.max
            if let narrowing = try coordinator.narrow(
                info, predicate: request.predicate?.expression, sort: request.sortDescriptors,
                limit: pushesLimit ? limit : nil, offset: offset, alsoLoading: Array(scan.overrides.keys))
            {
                scan = scan.reading(narrowing.snapshot)
                inSortOrder = scan.useCandidates(narrowing.plan)
                scan.committedCandidatesMatch = narrowing.isExact
                if narrowing.appliedLimit { offset = 0 }
            }
        } else if let predicate, let plan = IndexPlan(predicate, table: scan.table, sort: sort) {
            inSortOrder = scan.useCandidates(plan)
        }
        let budget = PredicateWorkBudget(objects: scan.table.count + scan.pending.count)
        let resolver = resolver(for: scan, budget: budget)
        if predicate == nil, swiftTerm == nil, sort == nil, offset == 0, scan.readsCommittedRowsOnly {
            return scan.selectAll(limit: limit, resolver: resolver, make)
        }
        guard let sort, !inSortOrder else {
            var results: [Element] = []
            if predicate == nil, swiftTerm == nil, scan.candidateKeys == nil {
                results.reserveCapacity(min(limit, max(0, scan.table.count + scan.pending.count - offset)))
            }
            var skipped = 0
            scan.forEachCandidate(filter: predicate, mayStopEarly: limit < Int.max || swiftTerm != nil) {
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
            try budget.check(entity: info.name)
            return results
        }
        var matches: [FetchCandidate] = []
        if predicate == nil, swiftTerm == nil, scan.candidateKeys == nil {
            matches.reserveCapacity(scan.table.count + scan.pending.count)
        }
        scan.forEachCandidate(filter: predicate, mayStopEarly: swiftTerm != nil) { candidate in
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
        try budget.check(entity: info.name)
        // Stable: ties keep key order, which `matches` is in.
        let order =
            sort.columnOrder(of: matches, table: scan.table)
            ?? {
                let keys = matches.map { sort.sortValues(of: $0.values, key: $0.key, resolver: resolver) }
                let collation = sort.collationKeys(of: keys)
                return Array(keys.indices).sorted { lhs, rhs in
                    let comparison = sort.compare(keys, lhs, rhs, collation: collation)
                    return comparison != 0 ? comparison < 0 : lhs < rhs
                }
            }()
        try budget.check(entity: info.name)
        return order.dropFirst(offset).prefix(limit).map { make(matches[$0], resolver) }
    }

    /// The number of objects a fetch request would return, without creating them.
    ///
    /// - Throws: as ``fetch(_:)`` (sort descriptors are not used).
    /// - Complexity: without a predicate, O(*p*) for *p* pending changes when the request
    ///   includes them and O(1) otherwise; with one, O(*n*) for *n* objects of the entity.
    ///
    /// Core Data: `NSManagedObjectContext.count(for:)`.
    public func count<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> Int {
        try mergePendingSaves()
        let info = try request.entity(in: model)
        if request.includesSubentities, info.hasSubentities { return try countHierarchy(request, of: info) }
        let total: Int
        if let predicate = request.predicate {
            let compiled = try CompiledPredicate(predicate, entity: info, model: model, withSwiftPart: true)
            let swiftTerm = try CompiledSwiftTerm(predicate, entity: info, model: model)
            var scan = makeScan(of: info, includingPendingChanges: request.includesPendingChanges)
            if coordinator.querying != nil {
                if scan.pending.isEmpty, scan.overrides.isEmpty, swiftTerm == nil,
                    let count = try coordinator.committedCount(of: info, matching: predicate.expression)
                {
                    return Self.limited(count, request)
                }
                if let narrowing = try coordinator.narrow(
                    info, predicate: predicate.expression, sort: [], limit: nil, offset: 0,
                    alsoLoading: Array(scan.overrides.keys))
                {
                    scan = scan.reading(narrowing.snapshot)
                    scan.useCandidates(narrowing.plan)
                    scan.committedCandidatesMatch = narrowing.isExact
                }
            } else if let plan = IndexPlan(compiled, table: scan.table, sort: nil) {
                scan.useCandidates(plan)
            }
            let budget = PredicateWorkBudget(objects: scan.table.count + scan.pending.count)
            let resolver = resolver(for: scan, budget: budget)
            var matches = 0
            var swiftFailure: (any Error)?
            scan.forEachCandidate(filter: compiled, mayStopEarly: swiftTerm != nil) { candidate in
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
            try budget.check(entity: info.name)
            total = matches
        } else {
            let table = coordinator.snapshot().tables[info.index]
            let isQuerying = coordinator.querying != nil
            // Whether the store holds the object (a querying store's cache may not hold its row).
            func isStored(_ object: ManagedObject) -> Bool {
                isQuerying
                    ? coordinator.containsCommittedObject(object.objectID, entityIndex: info.index)
                    : table[object.objectKey] != nil
            }
            var count = isQuerying ? try coordinator.committedCount(of: info.index) : table.count
            if parent != nil {
                // A child: every level's live inserts, less the stored rows some level deleted.
                let (pending, overrides) = layeredChanges(of: info, includingOwn: request.includesPendingChanges)
                count += pending.count
                for object in overrides.values where object.isDeleted && isStored(object) { count -= 1 }
            } else if request.includesPendingChanges {
                count += inserted.reduce(0) { $0 + ($1.info.index == info.index ? 1 : 0) }
                count -= deleted.reduce(0) { $0 + ($1.info.index == info.index && isStored($1) ? 1 : 0) }
            }
            total = count
        }
        return Self.limited(total, request)
    }

    /// `total` matches after a request's offset and limit.
    private static func limited<Result>(_ total: Int, _ request: FetchRequest<Result>) -> Int {
        let afterOffset = max(0, total - max(0, request.fetchOffset))
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    // MARK: - Candidates

    private func makeScan(of info: EntityInfo, includingPendingChanges: Bool) -> FetchScan {
        let snapshot = coordinator.snapshot()
        var pending: [FetchCandidate] = []
        var overrides: [Int64: FetchCandidate] = [:]
        if parent != nil {
            let (objects, changed) = layeredChanges(of: info, includingOwn: includingPendingChanges)
            pending = objects.map(Self.candidate)
            overrides = changed.mapValues(Self.candidate)
        } else if includingPendingChanges {
            pending = inserted.filter { $0.info.index == info.index }.sorted { $0.objectKey < $1.objectKey }
                .map(Self.candidate)
            for object in touched where object.info.index == info.index {
                overrides[object.objectKey] = Self.candidate(object)
            }
            for object in deleted where object.info.index == info.index {
                overrides[object.objectKey] = Self.candidate(object)
            }
        }
        return FetchScan(
            info: info, snapshot: snapshot, table: snapshot.tables[info.index],
            includesPendingChanges: includingPendingChanges, pending: pending, overrides: overrides)
    }

    /// A registered object as a fetch candidate, with its current values.
    private static func candidate(_ object: ManagedObject) -> FetchCandidate {
        FetchCandidate(
            object: object, key: object.objectKey, values: object.values, version: object.version,
            isPendingDeletion: object.flags.isDeleted)
    }

    /// The current values of any object, for key paths through relationships: the context's
    /// (unless deleted) when it includes pending changes, else the committed row's.
    ///
    /// Each object reached spends one unit of `budget`; once it is spent, objects read as missing.
    private func resolver(for scan: FetchScan, budget: PredicateWorkBudget) -> PredicateResolver {
        let snapshot = scan.snapshot
        let model = snapshot.model
        let includesPendingChanges = scan.includesPendingChanges
        let isQuerying = coordinator.querying != nil
        let coordinator = coordinator
        return PredicateResolver { [unowned self] id in
            guard budget.spend() else { return nil }
            // Only objects with unsaved changes override the committed row; an unchanged
            // registered object may be older than the snapshot (another context saved since).
            // A child context sees its ancestors' unsaved changes as committed.
            var level = includesPendingChanges ? self : self.parent
            while let current = level {
                if let object = current.registry[id], object.hasUnsavedState {
                    return object.flags.isDeleted || object.flags.isMissing ? nil : object.values
                }
                level = current.parent
            }
            guard let info = model.info(named: id.entityName) else { return nil }
            if let row = snapshot.tables[info.index][id.key] { return row.values }
            // A querying store's cache holds the rows read so far: others are read when reached.
            guard isQuerying else { return nil }
            return coordinator.committedRow(of: id, entityIndex: info.index)?.values
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
    func object(
        for candidate: FetchCandidate, info: EntityInfo, materializing: EntityDescription? = nil
    ) -> ManagedObject {
        // A child context's candidates may be its ancestors' objects: it gets its own instance.
        if let owner = candidate.object {
            // The scan's registered objects are managed objects (`makeScan`).
            let object = unsafeDowncast(owner, to: ManagedObject.self)
            if object.context === self { return object }
        }
        return materialize(
            info: info, key: candidate.key, row: EntityTable.Row(version: candidate.version, values: candidate.values),
            materializing: materializing)
    }
}
