extension PersistenceError {
    /// A key path given to ``ManagedObject/value(forKeyPath:)`` that cannot be followed: a key
    /// after an attribute, an unknown or misplaced collection operator, or values an operator
    /// cannot combine. `problem` says which, as a clause ("continues after the attribute 'name'").
    static func invalidKeyPath(_ path: String, problem: String, entity: String, objectID: ObjectID?) -> PersistenceError
    {
        PersistenceError(
            code: .unknownKey,
            message: "Key path '\(path)' of entity '\(entity)' \(problem). Follow relationships with '.', end at an "
                + "attribute or relationship, and put @count, @sum, @avg, @min, @max, @unionOfObjects or "
                + "@distinctUnionOfObjects right after a to-many relationship.",
            entityName: entity, objectID: objectID, key: path)
    }

    /// A mutable relationship proxy asked for a key that is not a to-many relationship of the
    /// wanted kind (`ordered` or not).
    static func notToManyRelationship(
        key: String, entity: String, objectID: ObjectID, isAttribute: Bool, isToMany: Bool, wantsOrdered: Bool
    ) -> PersistenceError {
        let actual =
            isAttribute
            ? "an attribute" : !isToMany ? "a to-one relationship" : wantsOrdered ? "unordered" : "ordered"
        let call = wantsOrdered ? "mutableOrderedSetValue(forKey:)" : "mutableSetValue(forKey:)"
        let instead =
            isAttribute || !isToMany
            ? "use value(forKey:) and setValue(_:forKey:) for it"
            : wantsOrdered ? "use mutableSetValue(forKey:) for it" : "use mutableOrderedSetValue(forKey:) for it"
        return PersistenceError(
            code: .typeMismatch,
            message: "\(call) needs \(wantsOrdered ? "an ordered" : "an unordered") to-many relationship, but "
                + "'\(entity).\(key)' is \(actual): \(instead).",
            entityName: entity, objectID: objectID, key: key)
    }

    /// A position outside an ordered relationship's bounds.
    static func relationshipIndexOutOfRange(
        _ index: Int, count: Int, key: String, entity: String, objectID: ObjectID
    ) -> PersistenceError {
        PersistenceError(
            code: .outOfRange,
            message: "Index \(index) is outside '\(entity).\(key)', which holds \(count) objects. Pass an index "
                + "from 0 to \(count) to insert, or below \(count) to remove or move.",
            entityName: entity, objectID: objectID, key: key)
    }
}
