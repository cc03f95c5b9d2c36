/// Why a Swift value cannot be bound into a predicate.
struct PredicateArgumentProblem: Error {
    let reason: String
}
