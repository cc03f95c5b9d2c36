/// A value of a higher layer that binds into predicates as a stored value, such as a managed
/// object (by its ID).
protocol PredicateArgumentConvertible {
    /// The value the predicate compares; throws if the value has no stored form yet.
    func predicateValue() throws(PredicateArgumentProblem) -> PredicateValue
}
