extension PersistenceError {
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
