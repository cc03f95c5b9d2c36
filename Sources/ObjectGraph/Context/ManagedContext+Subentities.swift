extension ManagedContext {
    /// A fetch of an entity with sub-entities: the objects of the entity and of every entity
    /// inheriting from it, filtered, sorted, offset and limited as one list.
    func fetchHierarchy<Result: ManagedObject>(_ request: FetchRequest<Result>, of info: EntityInfo) throws
        -> [Result]
    {
        let members = try hierarchyMembers(of: info, as: Result.self)
        let materializing = members.map(\.materializingDescription)
        let objects = try selectHierarchy(FetchSelection(request), members: members, of: info) {
            candidate, position, _ in
            object(for: candidate, info: members[position], materializing: materializing[position])
        }
        // `hierarchyMembers` checked that every member's class is `Result` or a subclass of it.
        return objects.downcast(to: Result.self)
    }

    /// The number of objects a request of an entity with sub-entities selects.
    func countHierarchy<Result: ManagedObject>(_ request: FetchRequest<Result>, of info: EntityInfo) throws -> Int {
        var total = 0
        for member in try hierarchyMembers(of: info, as: Result.self) {
            var own = FetchRequest<ManagedObject>(entityName: member.name, predicate: request.predicate)
            own.includesPendingChanges = request.includesPendingChanges
            own.includesSubentities = false
            total += try count(for: own)
        }
        let afterOffset = max(0, total - max(0, request.fetchOffset))
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    /// The candidates a request of an entity with sub-entities selects, each made into an
    /// element by `make` (given the candidate's entity).
    func selectHierarchy<Element, Result: ManagedObject>(
        _ request: FetchSelection, of info: EntityInfo, as result: Result.Type,
        _ make: (FetchCandidate, EntityInfo, PredicateResolver) -> Element
    ) throws -> [Element] {
        let members = try hierarchyMembers(of: info, as: Result.self)
        return try selectHierarchy(request, members: members, of: info) { candidate, position, resolver in
            make(candidate, members[position], resolver)
        }
    }

    /// The concrete entities of `info`'s hierarchy, `info` first, each checked to be represented
    /// by `Result` or a subclass of it. Abstract entities have no saved objects and are left out.
    private func hierarchyMembers<Result: ManagedObject>(of info: EntityInfo, as result: Result.Type) throws
        -> [EntityInfo]
    {
        let members = info.familyIndexes.map { model.infos[$0] }.filter { !$0.description.isAbstract }
        for member in members where !(member.managedObjectClass is Result.Type) {
            throw PersistenceError.invalidFetchRequest(
                "Entity '\(member.name)' inherits from '\(info.name)' but is represented by "
                    + "\(member.managedObjectClass), which is not a \(Result.self). Make its class a subclass of "
                    + "\(Result.self), fetch with FetchRequest<ManagedObject>, or set includesSubentities to false.")
        }
        return members
    }

    /// Selects from each member entity (the request's predicate and sort apply to each, since
    /// sub-entities have the inherited properties at the same slots), then merges: in the sort
    /// order across all members (ties: member order, then key order), or without sort
    /// descriptors member by member in key order; then the offset and limit apply to the whole.
    private func selectHierarchy<Element>(
        _ request: FetchSelection, members: [EntityInfo], of info: EntityInfo,
        _ make: (FetchCandidate, Int, PredicateResolver) -> Element
    ) throws -> [Element] {
        let limit = request.fetchLimit > 0 ? request.fetchLimit : Int.max
        let offset = max(0, request.fetchOffset)
        // Each member needs to provide at most `offset + limit` candidates.
        let (wanted, overflow) = offset.addingReportingOverflow(limit)
        let perMember = FetchSelection(
            request, fetchLimit: limit == Int.max || overflow ? 0 : wanted, fetchOffset: 0)
        // Compiled per member: a sub-entity's own attributes come before its inherited
        // relationships, so a key path through a relationship has other slots there.
        let sorts =
            try request.sortDescriptors.isEmpty
            ? [] : members.map { try CompiledSort(request.sortDescriptors, entity: $0, model: model) }
        let sort = sorts.first
        typealias Picked = (candidate: FetchCandidate, resolver: PredicateResolver, sortValues: [StoreValue])
        var picked: [(position: Int, item: Picked)] = []
        for (position, member) in members.enumerated() {
            if sort == nil, perMember.fetchLimit > 0, picked.count >= perMember.fetchLimit { break }
            let memberSort = sorts.isEmpty ? nil : sorts[position]
            let items = try select(perMember, info: member) { candidate, resolver -> Picked in
                (
                    candidate, resolver,
                    memberSort?.sortValues(of: candidate.values, key: candidate.key, resolver: resolver) ?? []
                )
            }
            picked += items.lazy.map { (position, $0) }
        }
        var order = Array(picked.indices)
        if let sort {
            // Stable: `picked` is in member order, each member's candidates in sort then key order.
            order.sort { lhs, rhs in
                let comparison = sort.compare(picked[lhs].item.sortValues, picked[rhs].item.sortValues)
                return comparison != 0 ? comparison < 0 : lhs < rhs
            }
        }
        return order.dropFirst(offset).prefix(limit).map {
            make(picked[$0].item.candidate, picked[$0].position, picked[$0].item.resolver)
        }
    }
}
