extension PredicateExpression {
    /// What an index expression takes from a collection.
    ///
    /// Core Data: the `objectFrom:withIndex:` function of `NSExpression` (`array[FIRST]`).
    public indirect enum Index: Sendable, Hashable, Codable {
        /// `[FIRST]`: the first element (`nil` for an empty collection).
        case first
        /// `[LAST]`: the last element (`nil` for an empty collection).
        case last
        /// `[SIZE]`: the number of elements.
        case size
        /// `[n]`: the element at a zero-based position (`nil` when out of range).
        case at(Operand)
    }
}
