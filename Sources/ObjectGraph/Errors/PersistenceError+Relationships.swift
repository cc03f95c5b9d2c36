extension PersistenceError {
    /// A relationship set through ``ManagedObject/setValue(_:forKey:)`` to an object of another
    /// context, or to a detached one.
    static func foreignRelationshipTarget(
        _ target: ObjectID, isDetached: Bool, key: String, entity: String, objectID: ObjectID
    ) -> PersistenceError {
        let problem =
            isDetached
            ? "\(target) is detached (in no context); insert it into this object's context first"
            : "\(target) belongs to another context; get it in this object's context with "
                + "object(with:) or existingObject(with:) and relate that one"
        return PersistenceError(
            code: .typeMismatch,
            message: "'\(entity).\(key)' cannot relate objects of different contexts: \(problem).",
            entityName: entity, objectID: objectID, key: key)
    }

    /// A relationship set through ``ManagedObject/setValue(_:forKey:)`` on an object that is in
    /// no context.
    static func relationshipOfDetachedObject(key: String, entity: String, objectID: ObjectID) -> PersistenceError {
        PersistenceError(
            code: .typeMismatch,
            message: "'\(entity).\(key)' cannot be set while \(objectID) is detached (in no context). Insert it "
                + "into a context first.",
            entityName: entity, objectID: objectID, key: key)
    }
}
