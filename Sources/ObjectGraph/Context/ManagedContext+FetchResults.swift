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
        mergePendingSaves()
        let info = try request.entity(in: model)
        let name = info.name
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
        mergePendingSaves()
        let info = try request.entity(in: model)
        let properties = try FetchedProperty.resolve(request.propertiesToFetch, entity: info, model: model)
        let name = info.name
        return try select(FetchSelection(request), info: info) { candidate, resolver in
            var values: [String: StoreValue] = [:]
            values.reserveCapacity(properties.count)
            for property in properties { values[property.key] = property.value(of: candidate.values, resolver) }
            return FetchedRow(objectID: ObjectID(entityName: name, key: candidate.key), values: values)
        }
    }
}

/// One entry of `propertiesToFetch`, resolved to slots.
struct FetchedProperty {
    let key: String
    let path: CompiledPath
    /// Whether the value is a to-one relationship's destination.
    let isRelationship: Bool

    /// The property's value for an object with `values`: `null` past an empty to-one hop, and for
    /// a destination that no longer exists.
    func value(of values: [StoreValue], _ resolver: PredicateResolver) -> StoreValue {
        let value = path.hops.isEmpty ? values[path.last] : path.scalar(from: values, resolver: resolver)
        if isRelationship, case .object(let id) = value, resolver.resolve(id) == nil { return .null }
        return value
    }

    /// Resolves `keys` against `entity`; `nil` means every attribute and to-one relationship.
    static func resolve(_ keys: [String]?, entity: EntityInfo, model: ManagedObjectModel) throws -> [FetchedProperty] {
        guard let keys else {
            return (0..<entity.propertyCount).compactMap { slot in
                if !entity.isAttribute(slot), entity.relationship(at: slot).description.isToMany { return nil }
                return FetchedProperty(
                    key: entity.propertyName(at: slot), path: CompiledPath(hops: [], last: slot, lastIsToMany: false),
                    isRelationship: !entity.isAttribute(slot))
            }
        }
        var seen: Set<String> = []
        return try keys.filter { seen.insert($0).inserted }.map { try resolve($0, entity: entity, model: model) }
    }

    private static func resolve(_ key: String, entity: EntityInfo, model: ManagedObjectModel) throws -> FetchedProperty
    {
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var hops: [CompiledPath.Hop] = []
        for (offset, component) in components.enumerated() {
            guard let slot = current.slotByName[component] else {
                throw PersistenceError.unknownFetchedProperty(key, component: component, entity: current.name)
            }
            let isLast = offset == components.count - 1
            if current.isAttribute(slot) {
                guard isLast else {
                    throw PersistenceError.invalidFetchedProperty(
                        key, entity: entity.name,
                        problem: "continues past the attribute '\(current.name).\(component)'")
                }
                return FetchedProperty(
                    key: key, path: CompiledPath(hops: hops, last: slot, lastIsToMany: false), isRelationship: false)
            }
            let relationship = current.relationship(at: slot)
            guard !relationship.description.isToMany else {
                throw PersistenceError.invalidFetchedProperty(
                    key, entity: entity.name,
                    problem: "goes through the to-many relationship '\(current.name).\(component)'; "
                        + "fetch the objects, or a count with count(for:)")
            }
            if isLast {
                return FetchedProperty(
                    key: key, path: CompiledPath(hops: hops, last: slot, lastIsToMany: false), isRelationship: true)
            }
            hops.append(CompiledPath.Hop(slot: slot, isToMany: false))
            current = model.infos[relationship.destinationIndex]
        }
        throw PersistenceError.unknownFetchedProperty(key, component: key, entity: entity.name)
    }
}
