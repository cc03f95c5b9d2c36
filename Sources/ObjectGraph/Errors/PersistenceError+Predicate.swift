extension PersistenceError {
    /// A format string that does not parse; `position` counts Unicode scalars and is reported in
    /// characters.
    static func predicateSyntax(_ problem: String, format: String, position: Int) -> PersistenceError {
        let offset = characterOffset(in: format, scalarOffset: position)
        return PersistenceError(
            code: .invalidPredicate,
            message:
                "Cannot parse the predicate: \(excerpt(problem)) at position \(offset). Correct the format string.",
            position: offset)
    }

    /// A construct the format language has but this library does not evaluate.
    static func unsupportedPredicate(_ construct: String, format: String?, position: Int?, advice: String? = nil)
        -> PersistenceError
    {
        let offset = format.flatMap { format in position.map { characterOffset(in: format, scalarOffset: $0) } }
        let location = offset.map { " (at position \($0))" } ?? ""
        return PersistenceError(
            code: .unsupportedPredicate,
            message:
                "\(excerpt(construct.prefix(1).uppercased() + construct.dropFirst())) is not supported in predicates"
                + "\(location). "
                + (advice ?? "Rewrite the predicate without it, or filter the fetched objects in Swift."),
            position: offset)
    }

    /// Arguments or substitution variables that do not fit the placeholders.
    static func predicateArguments(_ problem: String, format: String?, position: Int?) -> PersistenceError {
        let offset = format.flatMap { format in position.map { characterOffset(in: format, scalarOffset: $0) } }
        let location = offset.map { " (at position \($0))" } ?? ""
        return PersistenceError(
            code: .invalidPredicate,
            message: "The predicate's arguments do not fit its format: \(excerpt(problem))\(location).",
            position: offset)
    }

    /// A predicate variable that has no value when the predicate is used.
    static func unboundPredicateVariable(_ name: String) -> PersistenceError {
        PersistenceError(
            code: .invalidPredicate,
            message: "The predicate's variable $\(name) has no value. Give it one with "
                + "withSubstitutionVariables([\"\(name)\": …]) before fetching.")
    }

    /// A key path in a predicate or sort descriptor that names no property.
    static func predicateUnknownKey(_ key: String, path: String, entity: String) -> PersistenceError {
        PersistenceError(
            code: .unknownKey,
            message: "Entity '\(entity)' has no attribute or relationship named '\(excerpt(key))' "
                + "(in key path '\(excerpt(path))'). "
                + "Check the key path's spelling.",
            entityName: entity, key: path)
    }

    /// A predicate that compares values of types that do not compare, or applies an operator to a
    /// type it does not take.
    static func predicateTypeMismatch(_ problem: String, key: String?, entity: String) -> PersistenceError {
        PersistenceError(
            code: .typeMismatch,
            message: "A predicate on entity '\(entity)' \(excerpt(problem)). Compare values of the key's type.",
            entityName: entity, key: key)
    }

    /// A predicate shape that cannot be evaluated against the entity (for example a key path
    /// that continues past an attribute).
    static func invalidPredicateKeyPath(_ problem: String, key: String, entity: String) -> PersistenceError {
        PersistenceError(
            code: .invalidPredicate,
            message: "The key path '\(excerpt(key))' on entity '\(entity)' \(excerpt(problem)).", entityName: entity,
            key: key)
    }

    /// A sort descriptor that cannot sort the entity's objects.
    static func invalidSortDescriptor(_ problem: String, key: String, entity: String) -> PersistenceError {
        PersistenceError(
            code: .invalidFetchRequest,
            message: "Cannot sort '\(entity)' objects by '\(excerpt(key))': \(excerpt(problem, limit: 400)).",
            entityName: entity,
            key: key)
    }

    /// The character offset of a Unicode-scalar offset in `format`.
    static func characterOffset(in format: String, scalarOffset: Int) -> Int {
        let scalars = format.unicodeScalars
        let end = scalars.index(scalars.startIndex, offsetBy: max(0, min(scalarOffset, scalars.count)))
        return String(scalars[..<end]).count
    }
}
