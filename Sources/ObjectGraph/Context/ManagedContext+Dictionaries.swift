import Foundation

extension ManagedContext {
    /// The results of a fetch request as dictionaries of values: the `propertiesToFetch` of each
    /// object, or, with `propertiesToGroupBy` or `expressionsToFetch`, one dictionary per group
    /// with its grouped properties and its aggregates, without creating objects.
    ///
    /// - **Objects**: the predicate selects them as ``fetch(_:)`` does, including this context's
    ///   unsaved changes unless `includesPendingChanges` is false.
    /// - **Groups**: objects with equal values of every `propertiesToGroupBy` key form a group
    ///   (nil is a value: objects without one form their own group). Each dictionary holds the
    ///   `propertiesToFetch` (by default the grouping keys; each must be one of them) and each
    ///   expression by name. Without `propertiesToGroupBy`, aggregates make one dictionary of all
    ///   matching objects (also when none match). Groups come in the order their first objects
    ///   were found (key order), unless sorted.
    /// - **Having**: `havingPredicate` is evaluated on each group's dictionary: its keys name the
    ///   grouped attributes and the aggregates, which `$name` also reads (`$total > 100`).
    /// - **Sort, distinct, page**: a grouped fetch sorts its dictionaries by the sort descriptors'
    ///   keys (grouped attributes or aggregate names); an ungrouped one sorts the objects. Then
    ///   `returnsDistinctResults` keeps the first of equal dictionaries, and `fetchOffset` and
    ///   `fetchLimit` apply to the dictionaries.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.propertiesToGroupBy = ["color"]
    /// request.expressionsToFetch = [.count(as: "fruits"), .average("price", as: "averagePrice")]
    /// request.havingPredicate = try FetchPredicate(format: "$fruits > 1")
    /// request.sortDescriptors = [SortDescriptor(key: "fruits", ascending: false)]
    /// let colors = try context.fetchDictionaries(request)
    /// ```
    ///
    /// - Throws: as ``fetchRows(_:)``, and `PersistenceError.Code.invalidFetchRequest` (naming
    ///   the key) for a fetched property that is neither grouped nor aggregated, grouping by a
    ///   to-many relationship, a having condition without grouping, an aggregate without a name,
    ///   with a name used twice, of a type it does not take (`sum` of a string) or of no key path
    ///   (other than `count`), and a sort key that is not in the dictionaries of a grouped fetch.
    /// - Complexity: O(*n*) for *n* objects of the entity (fewer with an index), O(*g* log *g*)
    ///   to sort *g* groups; memory O(*g*), no objects.
    ///
    /// Core Data: a fetch with `resultType = .dictionaryResultType`, `propertiesToFetch` with
    /// `NSExpressionDescription`s, `propertiesToGroupBy`, `havingPredicate` and
    /// `returnsDistinctResults`.
    public func fetchDictionaries<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [FetchedDictionary]
    {
        try mergePendingSaves()
        let info = try request.entity(in: model)
        if request.includesSubentities, info.hasSubentities {
            throw PersistenceError.invalidDictionaryFetch(
                "would include its sub-entities' objects, which dictionary fetches do not aggregate yet; "
                    + "set includesSubentities to false to fetch the entity's own objects, or fetch each "
                    + "sub-entity on its own", entity: info.name, key: nil)
        }
        let plan = try DictionaryFetchPlan(request, entity: info, model: model)
        guard plan.isGrouped else {
            let distinct = request.returnsDistinctResults
            let dictionaries = try select(FetchSelection(request, sorted: true, paged: !distinct), info: info) {
                candidate, resolver in
                var values: [String: StoreValue] = [:]
                values.reserveCapacity(plan.properties.count)
                for property in plan.properties {
                    values[property.key] = property.value(of: candidate.values, resolver)
                }
                return FetchedDictionary(values: values)
            }
            guard distinct else { return dictionaries }
            return Self.page(Self.distinct(dictionaries), offset: request.fetchOffset, limit: request.fetchLimit)
        }
        var groups: [[StoreValue]: Int] = [:]
        var keys: [[StoreValue]] = []
        var accumulators: [[AggregateAccumulator]] = []
        let fresh = plan.aggregates.map { AggregateAccumulator($0.function) }
        if plan.groupKeys.isEmpty {
            keys.append([])
            accumulators.append(fresh)
        }
        _ = try select(FetchSelection(request, sorted: false, paged: false), info: info) { candidate, resolver in
            let index: Int
            if plan.groupKeys.isEmpty {
                index = 0
            } else {
                let key = plan.groupKeys.map { $0.value(of: candidate.values, resolver) }
                if let found = groups[key] {
                    index = found
                } else {
                    index = keys.count
                    groups[key] = index
                    keys.append(key)
                    accumulators.append(fresh)
                }
            }
            for (position, aggregate) in plan.aggregates.enumerated() {
                accumulators[index][position].add(aggregate.property?.value(of: candidate.values, resolver) ?? .null)
            }
        }
        // Each group's columns: its fetched properties, then its aggregates.
        var rows = keys.indices.map { index in
            plan.propertyPositions.map { keys[index][$0] } + accumulators[index].map(\.result)
        }
        rows = try finish(rows, plan: plan, request: request, entity: info.name)
        let (_, names) = try plan.resultModel()
        let dictionaries = rows.map { row in
            FetchedDictionary(values: Dictionary(zip(names, row), uniquingKeysWith: { first, _ in first }))
        }
        let unique = request.returnsDistinctResults ? Self.distinct(dictionaries) : dictionaries
        return Self.page(unique, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    /// The grouped rows that pass the having condition, in the sort descriptors' order.
    private func finish<Result>(
        _ rows: [[StoreValue]], plan: DictionaryFetchPlan, request: FetchRequest<Result>, entity: String
    ) throws -> [[StoreValue]] {
        guard request.havingPredicate != nil || !request.sortDescriptors.isEmpty else { return rows }
        do {
            return try filterAndSort(rows, plan: plan, request: request, entity: entity)
        } catch let error as PersistenceError where error.code == .unknownKey && error.entityName == "Result" {
            throw PersistenceError.invalidDictionaryFetch(
                "sorts or filters its groups by '\(error.key ?? "")', which its dictionaries do not hold. Name a "
                    + "grouped attribute or an expression", entity: entity, key: error.key)
        }
    }

    private func filterAndSort<Result>(
        _ rows: [[StoreValue]], plan: DictionaryFetchPlan, request: FetchRequest<Result>, entity: String
    ) throws -> [[StoreValue]] {
        let (resultModel, _) = try plan.resultModel()
        let result = resultModel.infos[0]
        var kept = rows
        if let having = request.havingPredicate {
            guard having.swiftTerm == nil else {
                throw PersistenceError.invalidDictionaryFetch(
                    "has a havingPredicate with a Swift part, which reads objects; write it in the format syntax",
                    entity: entity, key: nil)
            }
            let names = having.variableNames
            if names.isEmpty {
                let compiled = try CompiledPredicate(having.expression, entity: result, model: resultModel)
                kept = rows.filter { compiled.matches($0, resolve: { _ in nil }) }
            } else {
                // `$name` reads the group's value of `name`: bound per group.
                let slots = Dictionary(
                    (0..<result.attributeCount).map { (result.attribute(at: $0).name, $0) },
                    uniquingKeysWith: { first, _ in first })
                kept = try rows.filter { row in
                    var variables: [String: Any?] = [:]
                    for name in names {
                        guard let slot = slots[name] else { throw PersistenceError.unboundPredicateVariable(name) }
                        variables[name] = row[slot]
                    }
                    let bound = try having.withSubstitutionVariables(variables)
                    return try CompiledPredicate(bound.expression, entity: result, model: resultModel)
                        .matches(row, resolve: { _ in nil })
                }
            }
        }
        guard !request.sortDescriptors.isEmpty else { return kept }
        let sort = try CompiledSort(request.sortDescriptors, entity: result, model: resultModel)
        let resolver = PredicateResolver(resolve: { _ in nil })
        let values = kept.map { sort.sortValues(of: $0, resolver: resolver) }
        // Stable: ties keep the groups' order.
        return values.indices.sorted { lhs, rhs in
            let comparison = sort.compare(values[lhs], values[rhs])
            return comparison != 0 ? comparison < 0 : lhs < rhs
        }.map { kept[$0] }
    }

    private static func distinct(_ dictionaries: [FetchedDictionary]) -> [FetchedDictionary] {
        var seen: Set<FetchedDictionary> = []
        return dictionaries.filter { seen.insert($0).inserted }
    }

    private static func page(_ dictionaries: [FetchedDictionary], offset: Int, limit: Int) -> [FetchedDictionary] {
        let rest = dictionaries.dropFirst(max(0, offset))
        return Array(limit > 0 ? rest.prefix(limit) : rest)
    }
}
