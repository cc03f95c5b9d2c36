extension FetchedResultsController {
    /// Starts receiving the container's saves, if the request's results can be updated object by
    /// object (see ``FetchedResultsPlan``); once, before the first fetch.
    func startTracking() {
        guard tracking == nil,
            let plan = try? FetchedResultsPlan(fetchRequest, sectionNameKeyPath: sectionNameKeyPath, context: context)
        else { return }
        let broadcaster = context.coordinator.broadcaster
        let made = FetchedResultsTracking(plan: plan, inboxNumber: broadcaster.nextContextNumber())
        broadcaster.addInbox(made.inbox, for: made.inboxNumber)
        tracking = made
    }

    /// Stops receiving the container's saves.
    func stopTracking() {
        guard let tracking else { return }
        context.coordinator.broadcaster.removeInbox(for: tracking.inboxNumber)
    }

    /// Sets what the next round starts from after the results were fetched whole: each result's
    /// sort values and section name, and the context's pending changes. O(*n*).
    func rebuildTracking() {
        guard var tracking = takeTracking() else { return }
        defer { self.tracking = tracking }
        let plan = tracking.plan
        let snapshot = context.coordinator.snapshot()
        let table = snapshot.tables[plan.info.index]
        let resolver = context.currentResolver(
            snapshot: snapshot, includingPendingChanges: plan.includesPendingChanges,
            budget: PredicateWorkBudget(objects: objects.count))
        tracking.sortValues = []
        tracking.sortValues.reserveCapacity(objects.count)
        tracking.sortValuesByKey = [:]
        tracking.sortValuesByKey.reserveCapacity(objects.count)
        for object in objects {
            let key = object.objectKey
            var values: [StoreValue] = []
            if let sort = plan.sort {
                let candidate = context.currentCandidate(
                    key: key, info: plan.info, table: table, includingPendingChanges: plan.includesPendingChanges)
                values = sort.sortValues(of: candidate?.values ?? object.values, key: key, resolver: resolver)
            }
            tracking.sortValues.append(values)
            tracking.sortValuesByKey[key] = values
        }
        if let sectionNameKeyPath {
            tracking.sectionNames = objects.map { Self.sectionName(of: $0, keyPath: sectionNameKeyPath) }
            tracking.runs = FetchedResultsSectionRuns(tracking.sectionNames)
        }
        (tracking.pendingKeys, tracking.pendingTouchesDependencies) = tracking.pendingChanges(in: context)
        tracking.isStale = false
        tracking.resets = context.observation.resets
    }

    /// The tracking state, taken out of the controller so that editing it copies nothing.
    private func takeTracking() -> FetchedResultsTracking? {
        defer { tracking = nil }
        return tracking
    }

    /// Brings the results up to date from the objects that changed since the last round (the
    /// container's saves, the context's pending changes now and at the last round, and objects
    /// whose values were replaced), and reports what changed. Returns false, having changed
    /// nothing, when the round must re-run the fetch: without a plan, after a reset, after a
    /// delete of every object of an entity, or when objects the request reads through
    /// relationships changed.
    ///
    /// - Complexity: O(*k* log *n*) for *k* changed objects among *n* results, plus moving the
    ///   array elements after each inserted, deleted or moved result.
    func updateIncrementally() -> Bool {
        guard var tracking = takeTracking() else { return false }
        defer { self.tracking = tracking }
        // A store that cannot say what other processes saved: the next fetch or save throws why.
        try? context.mergePendingSaves()
        let notifications = tracking.inbox.takeAll()
        guard !tracking.isStale, tracking.resets == context.observation.resets else { return false }
        let plan = tracking.plan
        let model = context.model
        var keys: Set<Int64> = []
        var touchesDependencies = false
        func note(_ id: ObjectID) {
            if id.entityName == plan.info.name {
                keys.insert(id.key)
            } else if !plan.dependencies.isEmpty, let info = model.info(named: id.entityName),
                plan.dependencies.contains(FetchedResultsPlan.root(of: info, model: model))
            {
                touchesDependencies = true
            }
        }
        for notification in notifications {
            if notification.emptied != nil { return false }
            notification.insertedObjectIDs.forEach(note)
            notification.updatedObjectIDs.forEach(note)
            notification.individuallyDeletedObjectIDs.forEach(note)
        }
        context.observation.replacedObjectIDs.forEach(note)
        let pending = tracking.pendingChanges(in: context)
        keys.formUnion(tracking.pendingKeys)
        keys.formUnion(pending.keys)
        guard !touchesDependencies, !pending.touchesDependencies, !tracking.pendingTouchesDependencies else {
            return false
        }
        tracking.pendingKeys = pending.keys
        guard !keys.isEmpty else { return true }
        guard let round = evaluate(keys, tracking: &tracking) else { return false }
        apply(round, to: &tracking)
        return true
    }

    /// A result that takes a new place: its sort values, key and object, its old index if it was
    /// a result before (relocated), and whether its values changed.
    private typealias Arrival = (values: [StoreValue], key: Int64, object: Result, from: Int?, isChanged: Bool)

    /// What a round found for its changed objects.
    private struct Round {
        /// Old indexes of results that leave their place (deleted or relocated), ascending.
        var leaving: [Int] = []
        /// Results that take a new place, in sort order.
        var arriving: [Arrival] = []
        /// Results that stay where they were (their sort values still fall between their
        /// neighbours'), by old index, with whether their values changed.
        var staying: [(index: Int, isChanged: Bool)] = []
    }

    /// Decides each changed object's membership and place; `nil` if the predicate ran out of
    /// budget or a result could not be found where its sort values say it is.
    ///
    /// A result whose new sort values still fall between its neighbours' stays and takes them at
    /// once (so the sort values stay in order and later decisions see them).
    private func evaluate(_ keys: Set<Int64>, tracking: inout FetchedResultsTracking) -> Round? {
        let plan = tracking.plan
        let snapshot = context.coordinator.snapshot()
        let table = snapshot.tables[plan.info.index]
        let budget = PredicateWorkBudget(objects: keys.count)
        let resolver = context.currentResolver(
            snapshot: snapshot, includingPendingChanges: plan.includesPendingChanges, budget: budget)
        var round = Round()
        for key in keys {
            var oldIndex: Int?
            if let oldValues = tracking.sortValuesByKey[key] {
                let index = tracking.insertionPoint(of: oldValues, key: key) { objects[$0].objectKey }
                guard index < objects.count, objects[index].objectKey == key else { return nil }
                oldIndex = index
            }
            var candidate = context.currentCandidate(
                key: key, info: plan.info, table: table, includingPendingChanges: plan.includesPendingChanges)
            if let found = candidate, let predicate = plan.predicate, !predicate.matches(found, resolver: resolver) {
                candidate = nil
            }
            guard let candidate else {
                if let oldIndex { round.leaving.append(oldIndex) }
                continue
            }
            let values = plan.sort?.sortValues(of: candidate.values, key: key, resolver: resolver) ?? []
            if let oldIndex {
                let object = objects[oldIndex]
                let isChanged = object.values != reportedValues[oldIndex]
                if plan.sort == nil || fits(values, key: key, at: oldIndex, tracking: tracking) {
                    tracking.sortValues[oldIndex] = values
                    tracking.sortValuesByKey[key] = values
                    round.staying.append((oldIndex, isChanged))
                } else {
                    round.leaving.append(oldIndex)
                    round.arriving.append((values, key, object, oldIndex, isChanged))
                }
            } else {
                let object = context.object(for: candidate, info: plan.info)
                // `FetchRequest.entity(in:)` checked that the entity's class is `Result` or a subclass.
                round.arriving.append((values, key, unsafeDowncast(object, to: Result.self), nil, true))
            }
        }
        guard budget.remaining >= 0 else { return nil }
        round.leaving.sort()
        round.arriving.sort { [tracking] in tracking.sortsBefore($0.values, $0.key, $1.values, $1.key) }
        return round
    }

    /// Whether a result with `values` and `key` sorts between the neighbours of `index`.
    private func fits(_ values: [StoreValue], key: Int64, at index: Int, tracking: FetchedResultsTracking) -> Bool {
        if index > 0, !tracking.sortsBefore(tracking.sortValues[index - 1], objects[index - 1].objectKey, values, key) {
            return false
        }
        if index + 1 < objects.count,
            !tracking.sortsBefore(values, key, tracking.sortValues[index + 1], objects[index + 1].objectKey)
        {
            return false
        }
        return true
    }

    /// Edits the results, their sort values and sections by `round`, and reports the changes.
    private func apply(_ round: Round, to tracking: inout FetchedResultsTracking) {
        tracking.runs?.beginRound()
        var arrived: [Int] = []
        var renamed = false
        if round.leaving.isEmpty && round.arriving.isEmpty {
            renamed = restate(round, tracking: &tracking)
        } else {
            registrar.withMutation(of: self, keyPath: \.fetchedObjects) {
                remove(round.leaving, tracking: &tracking)
                renamed = restate(round, tracking: &tracking)
                arrived = insert(round.arriving, tracking: &tracking)
            }
            sectionCache = nil
        }
        if renamed { sectionCache = nil }
        var changes = Self.changes(of: round, arrived: arrived)
        if let sections = tracking.runs?.endRound() {
            changes.deletedSections = sections.deleted
            changes.insertedSections = sections.inserted
        }
        report(changes)
    }

    /// Removes the results at `indexes` (ascending).
    private func remove(_ indexes: [Int], tracking: inout FetchedResultsTracking) {
        for index in indexes.reversed() {
            tracking.sortValuesByKey[objects[index].objectKey] = nil
            objects.remove(at: index)
            reportedValues.remove(at: index)
            tracking.sortValues.remove(at: index)
            if sectionNameKeyPath != nil {
                tracking.sectionNames.remove(at: index)
                tracking.runs?.remove(at: index)
            }
        }
    }

    /// Inserts the arriving results (in sort order) where they sort; returns their indexes.
    private func insert(_ arriving: [Arrival], tracking: inout FetchedResultsTracking) -> [Int] {
        var arrived: [Int] = []
        arrived.reserveCapacity(arriving.count)
        for arrival in arriving {
            let index = tracking.insertionPoint(of: arrival.values, key: arrival.key) { objects[$0].objectKey }
            objects.insert(arrival.object, at: index)
            reportedValues.insert(arrival.object.values, at: index)
            tracking.sortValues.insert(arrival.values, at: index)
            tracking.sortValuesByKey[arrival.key] = arrival.values
            if let sectionNameKeyPath {
                let name = Self.sectionName(of: arrival.object, keyPath: sectionNameKeyPath)
                tracking.sectionNames.insert(name, at: index)
                tracking.runs?.insert(name, at: index)
            }
            arrived.append(index)
        }
        return arrived
    }

    /// Takes the current values and section names of the results that stayed in place (their
    /// old indexes shifted past the leaving ones, already removed); whether a section name changed.
    private func restate(_ round: Round, tracking: inout FetchedResultsTracking) -> Bool {
        var renamed = false
        for stay in round.staying {
            let index = stay.index - Self.count(of: round.leaving, below: stay.index)
            let object = objects[index]
            reportedValues[index] = object.values
            guard let sectionNameKeyPath else { continue }
            let name = Self.sectionName(of: object, keyPath: sectionNameKeyPath)
            guard name != tracking.sectionNames[index] else { continue }
            renamed = true
            tracking.sectionNames[index] = name
            tracking.runs?.remove(at: index)
            tracking.runs?.insert(name, at: index)
        }
        return renamed
    }

    /// The changes of a round: deletes and inserts; relocated results that keep their place
    /// among the others are updates (if their values changed), the rest moves.
    private static func changes(of round: Round, arrived: [Int]) -> FetchedResultsChanges {
        var changes = FetchedResultsChanges()
        let sortedArrived = arrived.sorted()
        var relocated: [(from: Int, to: Int, isChanged: Bool)] = []
        var relocatedFrom: Set<Int> = []
        for (offset, arrival) in round.arriving.enumerated() {
            if let from = arrival.from {
                relocated.append((from, arrived[offset], arrival.isChanged))
                relocatedFrom.insert(from)
            } else {
                changes.inserted.append(arrived[offset])
            }
        }
        changes.deleted = round.leaving.filter { !relocatedFrom.contains($0) }
        changes.inserted.sort()
        // A relocated result keeps its place if as many unmoved results precede it before and
        // after; among those between the same unmoved results, the longest run in order stays.
        var byGap: [Int: [(from: Int, to: Int, isChanged: Bool)]] = [:]
        for move in relocated {
            let oldGap = move.from - count(of: round.leaving, below: move.from)
            let newGap = move.to - count(of: sortedArrived, below: move.to)
            if oldGap == newGap {
                byGap[oldGap, default: []].append(move)
            } else {
                changes.moved.append(.init(from: move.from, to: move.to))
            }
        }
        for group in byGap.values {
            let ordered = group.sorted { $0.from < $1.from }
            let kept = longestIncreasing(ordered.map(\.to))
            for (offset, move) in ordered.enumerated() {
                if kept.contains(offset) {
                    if move.isChanged { changes.updated.append(move.from) }
                } else {
                    changes.moved.append(.init(from: move.from, to: move.to))
                }
            }
        }
        for stay in round.staying where stay.isChanged { changes.updated.append(stay.index) }
        changes.updated.sort()
        changes.moved.sort { $0.from < $1.from }
        return changes
    }

    /// The number of elements of the ascending `sorted` below `value`.
    private static func count(of sorted: [Int], below value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The offsets of a longest increasing subsequence of `values`.
    private static func longestIncreasing(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // offsets: the last element of the best chain of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (offset, value) in values.enumerated() {
            var length = 0
            var high = tails.count
            while length < high {
                let middle = (length + high) / 2
                if values[tails[middle]] < value { length = middle + 1 } else { high = middle }
            }
            if length > 0 { previous[offset] = tails[length - 1] }
            if length == tails.count { tails.append(offset) } else { tails[length] = offset }
        }
        var kept: Set<Int> = []
        var offset = tails.last ?? -1
        while offset >= 0 {
            kept.insert(offset)
            offset = previous[offset]
        }
        return kept
    }

    /// The results' sections: from the tracked runs, or by reading each result's section name.
    func makeSections() -> [FetchedResultsSection<Result>] {
        guard let runs = tracking?.runs, runs.count == objects.count else {
            return Self.sections(of: objects, keyPath: sectionNameKeyPath)
        }
        return runs.names.indices.map { run in
            FetchedResultsSection(name: runs.names[run], objects: Array(objects[runs.starts[run]..<runs.end(of: run)]))
        }
    }
}
