import Foundation

extension PredicateRegex {
    /// `MATCHES` as a signature column tests it: the rows whose signature lacks a character or
    /// pair of the pattern's ``requiredLiterals`` cannot match, and are ruled out before the
    /// regex runs. Made from the pattern alone, so a column built for one query serves every
    /// later `MATCHES` (or `CONTAINS`, `LIKE`…) of the attribute with the same options.
    ///
    /// Without `[c]`, a column's folded value (kept for values that are not ASCII) is exactly
    /// the string the regex is run on, so the regex tests it directly rather than folding the
    /// value again; with `[c]` it is not (ICU's case-insensitive matching is not the column's
    /// case folding), so those rows are left to the regex on the value.
    var signatureTest: StringSignatureCondition {
        var required = StringSignature.empty
        for literal in requiredLiterals {
            let signature = StringSignature.of(literal, folding: options)
            required.scalars |= signature.scalars
            required.pairs |= signature.pairs
        }
        let matchesFolded: ((String) -> Bool)?
        if options.contains(.caseInsensitive) {
            matchesFolded = nil
        } else {
            let expression = expression
            matchesFolded = { folded in
                expression.firstMatch(in: folded, options: [], range: NSRange(location: 0, length: folded.utf16.count))
                    != nil
            }
        }
        return StringSignatureCondition(required: required, options: options, matchesFolded: matchesFolded)
    }
}
