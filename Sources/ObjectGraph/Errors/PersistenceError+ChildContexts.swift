extension PersistenceError {
    /// A child context's save found an object its parent changed or deleted since the child read it.
    static func changedInParent(_ id: ObjectID, deleted: Bool) -> PersistenceError {
        let what = deleted ? "deleted it" : "changed it"
        return PersistenceError(
            code: .conflict,
            message: "\(id): the parent context \(what) after this child context read it, so the child's "
                + "save was refused and nothing changed. Refresh the object in the child and apply the change "
                + "again, or set the child's mergePolicy.",
            entityName: id.entityName, objectID: id)
    }
}
