extension ManagedObject {
    /// Throws the object's property failures (required values, relationship counts and
    /// attribute rules), as Core Data's default `validateForInsert()` does; nothing when a save
    /// already checked them and is calling the object's validation methods.
    func validateProperties() throws {
        guard !flags.isInValidationHook else { return }
        var failures: [PersistenceError] = []
        guard !ManagedContext.appendPropertyFailures(of: self, to: &failures) else { return }
        throw PersistenceError.validationFailed(failures)
    }

    /// Throws a failure for each non-empty relationship with the `deny` delete rule, as Core
    /// Data's default `validateForDelete()` does; nothing when a save already checked them.
    func validateDenyRules() throws {
        guard !flags.isInValidationHook, let context else { return }
        let failures = context.denyRuleFailures(of: self)
        guard failures.isEmpty else { throw PersistenceError.validationFailed(failures) }
    }
}
