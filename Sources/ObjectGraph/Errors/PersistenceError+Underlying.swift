extension PersistenceError {
    /// An error of the app's own type thrown by an object's validation method.
    static func appValidationFailed(_ error: any Error, objectID: ObjectID) -> PersistenceError {
        PersistenceError(
            code: .validation,
            message: "\(objectID) failed its own validation with a \(type(of: error)). Its error is `underlying`.",
            entityName: objectID.entityName, objectID: objectID, underlying: error)
    }

    /// The first error of type `E` behind this one: its ``underlying`` error, or that of one of
    /// its ``detailedErrors`` (looking through underlying `PersistenceError`s too); `nil` if none.
    ///
    /// An object's validation method that throws the app's own error fails the save with a
    /// `.validation` error whose ``underlying`` is the app's error (one failure), or whose
    /// ``detailedErrors`` each carry theirs (several). This finds it in one step either way.
    ///
    /// For example:
    /// ```swift
    /// do { try context.save() } catch let error as PersistenceError {
    ///     if let reason = error.underlyingError(as: BudgetRule.self) { show(reason) }
    /// }
    /// ```
    ///
    /// Core Data: `save()` rethrows the app's own error when it is the only failure, and lists
    /// it under `NSDetailedErrorsKey` otherwise.
    public func underlyingError<E: Error>(as type: E.Type) -> E? {
        underlyingErrors(as: type).first
    }

    /// Every error of type `E` behind this one and its ``detailedErrors``, in order (each
    /// underlying error once); see ``underlyingError(as:)``.
    public func underlyingErrors<E: Error>(as type: E.Type) -> [E] {
        var found: [E] = []
        collectUnderlying(into: &found)
        // A single failure is its own detailed error: its underlying error counts once.
        let isOwnDetail =
            detailedErrors.count == 1 && detailedErrors[0].message == message
            && detailedErrors[0].objectID == objectID
        if !isOwnDetail {
            for detail in detailedErrors { found += detail.underlyingErrors(as: type) }
        }
        return found
    }

    private func collectUnderlying<E: Error>(into found: inout [E]) {
        var next = underlying
        while let error = next {
            if let match = error as? E { found.append(match) }
            next = (error as? PersistenceError)?.underlying
        }
    }
}
