/// A string conjunct as a signature column tests it: the rows whose signature (folded as the
/// conjunct folds) lacks a bit of `required` do not match.
struct StringSignatureCondition {
    let required: StringSignature
    let options: PredicateExpression.Options
    /// The conjunct's own test of a value already folded as `options` ask (the same test the
    /// conjunct makes after folding a value that is not ASCII), for the rows whose folded
    /// value a column keeps: exact, since a column settles those rows by it either way. `nil`
    /// when the conjunct does not test the folded value (those rows take their full test).
    let matchesFolded: ((String) -> Bool)?

    /// The test for a comparison with the folded constant `folded`, or `nil` when it would
    /// exclude nothing (an empty constant).
    ///
    /// A constant with a NUL character has none: Foundation's substring search (which
    /// `CONTAINS` uses on non-ASCII values) stops at a NUL, so a value may match it without
    /// containing it.
    init?(folded: String, options: PredicateExpression.Options, matchesFolded: @escaping (String) -> Bool) {
        guard !folded.utf8.contains(0) else { return nil }
        self.init(required: StringSignature.of(folded: folded), options: options, matchesFolded: matchesFolded)
    }

    init(required: StringSignature, options: PredicateExpression.Options, matchesFolded: ((String) -> Bool)?) {
        self.required = required
        self.options = options
        self.matchesFolded = matchesFolded
    }
}
