extension CompiledSort {
    /// The name of the sort key that orders objects by their ``ObjectID``, as in Core Data.
    static let objectIDKey = "objectID"

    /// The getter of a key path that ends at `objectID` (`objectID`, or `owner.objectID` through
    /// to-one relationships), or `nil` for any other key path. A property of that name takes
    /// precedence over the object's ID.
    ///
    /// The object's own ID sorts by key (the order objects were inserted in); a related object's
    /// ID sorts by entity name, then key, with `nil` first.
    ///
    /// - Throws: `PersistenceError.Code.invalidFetchRequest` for a hop through a to-many
    ///   relationship. A hop that names no to-one relationship gives `nil`, for the caller's
    ///   error.
    static func objectIDGetter(
        _ components: [String], entity: EntityInfo, model: ManagedObjectModel, key: String
    ) throws -> PredicateGetter? {
        guard components.last == objectIDKey else { return nil }
        var current = entity
        var hops: [CompiledPath.Hop] = []
        for component in components.dropLast() {
            guard let slot = current.slotByName[component] else {
                // An unknown hop: let the general resolution report it.
                return nil
            }
            guard !current.isAttribute(slot) else { return nil }
            let relationship = current.relationship(at: slot)
            guard !relationship.description.isToMany else {
                throw PersistenceError.invalidSortDescriptor(
                    "the key path goes through a to-many relationship; sort by a to-one key path or in Swift",
                    key: key, entity: entity.name)
            }
            current = model.infos[relationship.destinationIndex]
            hops.append(CompiledPath.Hop(slot: slot, isToMany: false, destination: current.inheritanceRoot))
        }
        // A property named objectID is sorted as that property.
        guard current.slotByName[objectIDKey] == nil else { return nil }
        guard let last = hops.popLast() else { return .evaluatedObject }
        // The related object's ID is the value of the last to-one relationship.
        return .path(.object, CompiledPath(hops: hops, last: last.slot, lastIsToMany: false))
    }
}
