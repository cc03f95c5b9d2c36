extension CompiledPredicate {
    /// Checks `predicate`'s expression against `entity` and compiles it.
    ///
    /// A predicate with a Swift part (``FetchPredicate/evaluatesInSwift``) compiles only its
    /// expression, a necessary condition; callers that evaluate the Swift part on objects
    /// (``CompiledSwiftTerm``) pass `withSwiftPart: true`. Others (which work on stored rows
    /// without objects) get `.unsupportedPredicate` rather than matching too much.
    ///
    /// - Throws: as ``init(_:entity:model:)``.
    init(_ predicate: FetchPredicate, entity: EntityInfo, model: ManagedObjectModel, withSwiftPart: Bool = false)
        throws
    {
        if !withSwiftPart, let term = predicate.swiftTerm {
            throw PersistenceError.swiftPredicateNeedsObjects(predicateType: term.evaluators[0].typeName)
        }
        try self.init(predicate.expression, entity: entity, model: model)
    }
}
