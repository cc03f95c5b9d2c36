extension PersistenceError {
    // MARK: - Dictionary fetches

    /// A `propertiesToFetch` key path with a component the entity does not have.
    static func unknownFetchedProperty(_ path: String, component: String, entity: String) -> PersistenceError {
        PersistenceError(
            code: .unknownKey,
            message: "Entity '\(entity)' has no attribute or relationship named '\(component)' "
                + "(in propertiesToFetch '\(path)'). Check the key's spelling.",
            entityName: entity, key: path)
    }

    /// A `propertiesToFetch` key path that a dictionary fetch cannot return.
    static func invalidFetchedProperty(_ path: String, entity: String, problem: String) -> PersistenceError {
        PersistenceError(
            code: .invalidFetchRequest,
            message: "Cannot fetch '\(path)' of '\(entity)' objects as a value: it \(problem).",
            entityName: entity, key: path)
    }

    // MARK: - Batch requests

    /// A batch request that cannot run (no properties to update, a relationship to update).
    static func invalidBatchRequest(_ problem: String, entity: String, key: String? = nil) -> PersistenceError {
        PersistenceError(
            code: .invalidFetchRequest, message: "The batch request on '\(entity)' \(problem).", entityName: entity,
            key: key)
    }

    /// A batch update value that breaks the attribute's optionality or validation rules.
    static func batchValueInvalid(entity: String, key: String, problem: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "The batch update sets '\(entity).\(key)' to a value that \(problem); nothing was changed. "
                + "Use a value the attribute allows.",
            entityName: entity, key: key)
    }

    /// A batch delete that a `deny` rule refuses.
    static func batchDeleteDenied(_ id: ObjectID, relationship: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(id) cannot be deleted while '\(id.entityName).\(relationship)' is not empty "
                + "(its delete rule is deny); nothing was deleted. Remove or delete those objects first, "
                + "or narrow the batch's predicate.",
            entityName: id.entityName, objectID: id, key: relationship)
    }

    /// An object that a batch delete's `nullify` rule would leave without a required relationship.
    static func batchMissingRequiredValue(_ id: ObjectID, key: String) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "Deleting the batch would leave \(id) without a value for required '\(id.entityName).\(key)'; "
                + "nothing was deleted. Delete or reassign that object too, or make the relationship optional.",
            entityName: id.entityName, objectID: id, key: key)
    }

    /// An object that a batch delete's `nullify` rule would leave under a relationship's minimum.
    static func batchRelationshipCount(_ id: ObjectID, relationship: RelationshipDescription, count: Int)
        -> PersistenceError
    {
        PersistenceError(
            code: .validation,
            message: "Deleting the batch would leave \(count) objects in '\(id.entityName).\(relationship.name)' "
                + "of \(id), fewer than its minimum \(relationship.minCount); nothing was deleted. "
                + "Narrow the batch's predicate.",
            entityName: id.entityName, objectID: id, key: relationship.name)
    }
}
