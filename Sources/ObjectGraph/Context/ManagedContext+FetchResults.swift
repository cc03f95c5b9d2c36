extension ManagedContext {
    /// The IDs of the objects a fetch request selects, without creating or registering objects.
    ///
    /// Selects exactly what ``fetch(_:)`` would return, in the same order: the predicate, sort
    /// descriptors, `fetchOffset`, `fetchLimit` and `includesPendingChanges` apply as they do
    /// there (unsaved inserts and updates match on their current values, pending deletes do not).
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.predicate = try FetchPredicate(format: "price > %d", 100)
    /// let ids = try context.fetchObjectIDs(request)   // [ObjectID], Sendable
    /// ```
    ///
    /// - Throws: as ``fetch(_:)``.
    /// - Complexity: as ``fetch(_:)``, without the cost of creating objects.
    ///
    /// Core Data: a fetch with `resultType = .managedObjectIDResultType`.
    public func fetchObjectIDs<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [ObjectID] {
        try mergePendingSaves()
        let info = try request.entity(in: model)
        if request.includesSubentities, info.hasSubentities {
            return try selectHierarchy(FetchSelection(request), of: info, as: Result.self) { candidate, member, _ in
                ObjectID(entityName: member.name, key: candidate.key)
            }
        }
        let name = info.name
        if let keys = try committedKeysOnly(request, info: info) {
            return keys.map { ObjectID(entityName: name, key: $0) }
        }
        return try select(FetchSelection(request), info: info) { candidate, _ in
            ObjectID(entityName: name, key: candidate.key)
        }
    }

    /// The values of the request's `propertiesToFetch` for each object a fetch request selects,
    /// without creating or registering objects.
    ///
    /// Selects exactly what ``fetch(_:)`` would return, in the same order, and reads each
    /// object's current values (this context's unsaved values when the request includes pending
    /// changes). `propertiesToFetch` names attributes, to-one relationships (their value is the
    /// destination's ID) and key paths through to-one relationships (`"basket.label"`); `nil`
    /// fetches every attribute and to-one relationship.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.propertiesToFetch = ["name", "price"]
    /// let prices = try context.fetchRows(request).map { $0.value(forKey: "price", as: Int64.self) }
    /// ```
    ///
    /// - Throws: as ``fetch(_:)``; also `PersistenceError.Code.unknownKey` for a property the
    ///   entity does not have (naming it), and `.invalidFetchRequest` for a to-many relationship or
    ///   a key path through one, or one that continues past an attribute.
    /// - Complexity: as ``fetch(_:)``, plus O(*k*) per row for *k* properties; no objects.
    ///
    /// Core Data: a fetch with `resultType = .dictionaryResultType` and `propertiesToFetch`.
    public func fetchRows<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [FetchedRow] {
        try mergePendingSaves()
        let info = try request.entity(in: model)
        let properties = try FetchedProperty.resolve(request.propertiesToFetch, entity: info, model: model)
        if request.includesSubentities, info.hasSubentities {
            // The request's entity's properties, resolved in each sub-entity (whose own
            // attributes come before the inherited relationships).
            var byMember: [Int: [FetchedProperty]] = [info.index: properties]
            for index in info.lineage.subentityIndexes {
                byMember[index] = try FetchedProperty.resolve(
                    properties.map(\.key), entity: model.infos[index], model: model)
            }
            return try selectHierarchy(FetchSelection(request), of: info, as: Result.self) {
                candidate, member, resolver in
                var values: [String: StoreValue] = [:]
                for property in byMember[member.index] ?? [] {
                    values[property.key] = property.value(of: candidate.values, resolver)
                }
                return FetchedRow(objectID: ObjectID(entityName: member.name, key: candidate.key), values: values)
            }
        }
        let name = info.name
        return try select(FetchSelection(request), info: info) { candidate, resolver in
            var values: [String: StoreValue] = [:]
            values.reserveCapacity(properties.count)
            for property in properties { values[property.key] = property.value(of: candidate.values, resolver) }
            return FetchedRow(objectID: ObjectID(entityName: name, key: candidate.key), values: values)
        }
    }
}
