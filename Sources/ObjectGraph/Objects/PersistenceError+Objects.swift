extension PersistenceError {
    static func missingRequiredValue(object: ManagedObject, key: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(object.objectID) has no value for required '\(object.info.name).\(key)'. "
                + "Set it before saving, give it a default, or make it optional.",
            entityName: object.info.name, objectID: object.objectID, key: key)
    }

    static func ruleBroken(object: ManagedObject, key: String, rule: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(object.objectID) '\(object.info.name).\(key)' \(rule). Change the value before saving.",
            entityName: object.info.name, objectID: object.objectID, key: key)
    }

    static func relationshipCount(object: ManagedObject, relationship: RelationshipDescription, count: Int)
        -> PersistenceError
    {
        let bounds = "\(relationship.minCount)...\(relationship.maxCount > 0 ? "\(relationship.maxCount)" : "")"
        return PersistenceError(
            code: .validation,
            message: "\(object.objectID) has \(count) objects in '\(object.info.name).\(relationship.name)', "
                + "outside the allowed count \(bounds). Add or remove objects before saving.",
            entityName: object.info.name, objectID: object.objectID, key: relationship.name)
    }

    static func deleteDenied(object: ManagedObject, relationship: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(object.objectID) cannot be deleted while '\(object.info.name).\(relationship)' is not empty "
                + "(its delete rule is deny). Remove or delete those objects first.",
            entityName: object.info.name, objectID: object.objectID, key: relationship)
    }

    /// A validation failure raised by an object's own rules, for `validateForSave()` overrides.
    ///
    /// For example:
    /// ```swift
    /// override func validateForSave() throws {
    ///     if price < 0 { throw PersistenceError.validation("Price must not be negative.", object: self, key: "price") }
    /// }
    /// ```
    public static func validation(
        _ message: String, object: ManagedObject, key: String? = nil, underlying: (any Error)? = nil
    ) -> PersistenceError {
        PersistenceError(
            code: .validation, message: message, entityName: object.info.name, objectID: object.objectID, key: key,
            underlying: underlying)
    }
}
