extension PersistenceError {
    /// An object of an abstract entity was inserted and is being saved or validated.
    static func abstractEntityInstance(objectID: ObjectID) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(objectID) is an object of the abstract entity '\(objectID.entityName)', which cannot be "
                + "saved. Insert an object of one of its sub-entities instead, or make the entity concrete.",
            entityName: objectID.entityName, objectID: objectID)
    }
}
