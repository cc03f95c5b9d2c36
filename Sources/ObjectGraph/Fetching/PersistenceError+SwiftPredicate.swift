import Foundation

extension PersistenceError {
    /// A Swift predicate used to fetch objects of another type.
    static func swiftPredicateInputMismatch(predicateType: String, entity: String) -> PersistenceError {
        PersistenceError(
            code: .invalidFetchRequest,
            message: "A #Predicate<\(predicateType)> cannot filter objects of entity '\(entity)', whose class is "
                + "not \(predicateType). Fetch with a request for \(predicateType), or write the predicate for "
                + "the entity's class.",
            entityName: entity)
    }

    /// A Swift predicate that threw while evaluating an object.
    static func swiftPredicateFailed(predicateType: String, object: ObjectID, underlying: any Error)
        -> PersistenceError
    {
        PersistenceError(
            code: .invalidPredicate,
            message: "The #Predicate<\(predicateType)> threw while evaluating object \(object.uriRepresentation) "
                + "(see `underlying`). Make the predicate total, for example with `??` instead of `!`.",
            entityName: object.entityName, objectID: object, underlying: underlying)
    }

    /// A predicate with a Swift part used where objects are not made (such as a batch request).
    static func swiftPredicateNeedsObjects(predicateType: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedPredicate,
            message: "A predicate with a #Predicate<\(predicateType)> part that does not convert to format syntax "
                + "can only be evaluated on objects, by fetch(_:) and count(for:). Write it with convertible "
                + "#Predicate shapes or FetchPredicate(format:) (see Docs/Predicates.md).")
    }

    /// Encoding a predicate whose Swift part cannot be represented.
    static func swiftPredicateNotEncodable(predicateType: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedPredicate,
            message: "A predicate with a #Predicate<\(predicateType)> part that does not convert to format syntax "
                + "cannot be encoded. Write the predicate with FetchPredicate(format:) or with "
                + "convertible #Predicate shapes (see Docs/Predicates.md) to store or send it.")
    }
}
