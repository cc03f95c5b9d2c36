extension PersistenceError {
    static func missingRequiredValue(objectID: ObjectID, key: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(objectID) has no value for required '\(objectID.entityName).\(key)'. "
                + "Set it before saving, give it a default, or make it optional.",
            entityName: objectID.entityName, objectID: objectID, key: key)
    }

    static func ruleBroken(objectID: ObjectID, key: String, rule: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(objectID) '\(objectID.entityName).\(key)' \(rule). Change the value before saving.",
            entityName: objectID.entityName, objectID: objectID, key: key)
    }

    static func relationshipCount(objectID: ObjectID, relationship: RelationshipDescription, count: Int)
        -> PersistenceError
    {
        let bounds = "\(relationship.minCount)...\(relationship.maxCount > 0 ? "\(relationship.maxCount)" : "")"
        return PersistenceError(
            code: .validation,
            message: "\(objectID) has \(count) objects in '\(objectID.entityName).\(relationship.name)', "
                + "outside the allowed count \(bounds). Add or remove objects before saving.",
            entityName: objectID.entityName, objectID: objectID, key: relationship.name)
    }

    static func deleteDenied(objectID: ObjectID, relationship: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(objectID) cannot be deleted while '\(objectID.entityName).\(relationship)' is not empty "
                + "(its delete rule is deny). Remove or delete those objects first.",
            entityName: objectID.entityName, objectID: objectID, key: relationship)
    }
}
