extension ManagedObject {
    /// A live, mutable set of the objects of an unordered to-many relationship: adding and
    /// removing through it changes the relationship as ``setValue(_:forKey:)`` does, inverse
    /// relationships, undo, observation and change tracking included.
    ///
    /// For example:
    /// ```swift
    /// try basket.mutableSetValue(forKey: "fruits").add(apple)
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key the entity lacks;
    ///   `PersistenceError.Code.typeMismatch` for an attribute, a to-one relationship or an
    ///   ordered one (use ``mutableOrderedSetValue(forKey:)``).
    ///
    /// Core Data: `NSManagedObject.mutableSetValue(forKey:)`.
    public func mutableSetValue(forKey key: String) throws -> MutableRelationshipSet {
        MutableRelationshipSet(object: self, key: key, slot: try toManySlot(forKey: key, ordered: false))
    }

    /// A live, mutable ordered set of the objects of an ordered to-many relationship: appending,
    /// inserting, moving and removing through it changes the relationship as
    /// ``setValue(_:forKey:)`` does, inverse relationships, undo, observation and change
    /// tracking included.
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key the entity lacks;
    ///   `PersistenceError.Code.typeMismatch` for an attribute, a to-one relationship or an
    ///   unordered one (use ``mutableSetValue(forKey:)``).
    ///
    /// Core Data: `NSManagedObject.mutableOrderedSetValue(forKey:)`.
    public func mutableOrderedSetValue(forKey key: String) throws -> MutableOrderedRelationshipSet {
        MutableOrderedRelationshipSet(object: self, key: key, slot: try toManySlot(forKey: key, ordered: true))
    }

    private func toManySlot(forKey key: String, ordered: Bool) throws -> Int {
        let slot = try slot(forKey: key)
        let isAttribute = info.isAttribute(slot)
        let relationship = isAttribute ? nil : info.relationship(at: slot).description
        guard let relationship, relationship.isToMany, relationship.isOrdered == ordered else {
            throw PersistenceError.notToManyRelationship(
                key: key, entity: info.name, objectID: objectID, isAttribute: isAttribute,
                isToMany: relationship?.isToMany ?? false, wantsOrdered: ordered)
        }
        return slot
    }
}
