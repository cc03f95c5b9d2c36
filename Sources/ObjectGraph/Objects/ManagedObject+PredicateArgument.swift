extension ManagedObject: PredicateArgumentConvertible {
    /// The object's ID: a predicate compares objects by identity.
    func predicateValue() throws(PredicateArgumentProblem) -> PredicateValue {
        guard objectID.key > 0 else {
            throw PredicateArgumentProblem(
                reason: "a \(type(of: self)) that is not inserted into a context has no object ID yet")
        }
        return .object(objectID)
    }
}
