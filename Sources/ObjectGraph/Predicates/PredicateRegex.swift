import Foundation

/// `MATCHES`: a regular expression that must match the whole string, as `NSPredicate` does.
struct PredicateRegex {
    let expression: NSRegularExpression
    let options: PredicateExpression.Options
    /// Text every matching string contains (``requiredLiterals(in:caseInsensitive:)``), folded as
    /// the pattern is.
    let requiredLiterals: [String]
    /// The pattern as an automaton, when it is of the simplest kind.
    let simpleProgram: SimpleRegexProgram?

    /// Compiles `pattern`; `[c]` makes it case-insensitive, `[d]` folds diacritics in both the
    /// pattern and the subject.
    ///
    /// - Throws: ``UnsafePredicatePattern`` for a pattern that could backtrack catastrophically
    ///   (``backtrackingProblem(in:)``), or the error of an invalid pattern.
    init(_ pattern: String, options: PredicateExpression.Options) throws {
        if let problem = Self.backtrackingProblem(in: pattern) { throw UnsafePredicatePattern(reason: problem) }
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let source =
            options.contains(.diacriticInsensitive) ? PredicateFolding.fold(pattern, [.diacriticInsensitive]) : pattern
        // The pattern must be valid on its own: wrapped, "a)(b" would become valid.
        _ = try NSRegularExpression(pattern: source, options: regexOptions)
        self.expression = try NSRegularExpression(pattern: "\\A(?:\(source))\\z", options: regexOptions)
        self.options = options
        self.requiredLiterals = Self.requiredLiterals(
            in: source, caseInsensitive: options.contains(.caseInsensitive))
        self.simpleProgram = SimpleRegexProgram(source, caseInsensitive: options.contains(.caseInsensitive))
    }

    static func isValid(_ pattern: String) -> Bool {
        (try? PredicateRegex(pattern, options: [])) != nil
    }

    func matches(_ value: String) -> Bool {
        let subject =
            options.contains(.diacriticInsensitive) ? PredicateFolding.fold(value, [.diacriticInsensitive]) : value
        if let simpleProgram, let decided = simpleProgram.matches(subject) { return decided }
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }
}
