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
            current = model.infos[relationship.destinationIndex]
            hops.append(CompiledPath.Hop(slot: slot, isToMany: false, destination: current.inheritanceRoot))
        }
        throw PersistenceError.unknownFetchedProperty(key, component: key, entity: entity.name)
    }
}
