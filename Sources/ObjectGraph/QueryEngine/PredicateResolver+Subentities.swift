extension PredicateResolver {
    /// The current values of the object `id`, in the slot layout of `entity` (its relationships
    /// where `entity` has them): a sub-entity's object has its own attributes before the
    /// inherited relationships, so those are moved back. `entity` is `nil` (no change) unless it
    /// has sub-entities.
    @inline(__always)
    func resolve(_ id: ObjectID, as entity: EntityInfo?) -> [StoreValue]? {
        guard let values = resolve(id) else { return nil }
        guard let entity, id.entityName != entity.name else { return values }
        return entity.valuesInLayout(values, ofSubentityNamed: id.entityName)
    }
}
