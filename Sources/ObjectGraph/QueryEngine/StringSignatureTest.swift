/// A string conjunct as a signature column tests it: the rows whose signature (folded as the
/// conjunct folds) lacks a bit of `required` do not match.
struct StringSignatureTest {
    let required: StringSignature
    let options: PredicateExpression.Options

    /// The test for a comparison with the folded constant `folded`, or `nil` when it would
    /// exclude nothing (an empty constant).
    ///
    /// A constant with a NUL character has none: Foundation's substring search (which
    /// `CONTAINS` uses on non-ASCII values) stops at a NUL, so a value may match it without
    /// containing it.
    init?(folded: String, options: PredicateExpression.Options) {
        guard !folded.utf8.contains(0) else { return nil }
        self.init(required: StringSignature.of(folded: folded), options: options)
    }

    init?(required: StringSignature, options: PredicateExpression.Options) {
        guard required != .empty else { return nil }
        self.required = required
        self.options = options
    }
}
