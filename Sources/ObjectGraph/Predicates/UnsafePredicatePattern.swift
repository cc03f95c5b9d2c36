/// A `MATCHES` pattern refused because it could backtrack catastrophically.
struct UnsafePredicatePattern: Error {
    let reason: String
}
