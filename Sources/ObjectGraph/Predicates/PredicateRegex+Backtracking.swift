extension PredicateRegex {
    /// The longest `MATCHES` pattern accepted, in characters.
    static let maximumPatternLength = 1_000
    /// The most unbounded repetitions (`*`, `+`, `{n,}`) one pattern may hold: each one can
    /// multiply the work of a match by the subject's length.
    static let maximumRepetitions = 6

    /// Why `pattern` could make a backtracking matcher take exponential (or high polynomial)
    /// time, or nil. `NSRegularExpression` has no time limit, so patterns that can backtrack
    /// catastrophically are refused before they run (Docs/Predicates.md, "Limits"):
    ///
    /// - a repeated group that itself holds a repetition: `(a+)+`, `(\w*\s?)*`, `(a{2,})*`;
    /// - a backreference (`\1`, `\k<name>`), whose matching is NP-hard;
    /// - more than ``maximumRepetitions`` unbounded repetitions, or a pattern longer than
    ///   ``maximumPatternLength``.
    ///
    /// - Complexity: O(*n*) in the pattern's length.
    static func backtrackingProblem(in pattern: String) -> String? {
        let characters = Array(pattern)
        guard characters.count <= maximumPatternLength else {
            return "is \(characters.count) characters long, more than the limit of \(maximumPatternLength)"
        }
        // For each open group: whether it holds a repetition.
        var groups: [Bool] = [false]
        // Whether the atom just read is a group holding a repetition (nil: no atom to repeat).
        var previousAtomRepeats: Bool?
        var repetitions = 0
        var index = 0
        func repeatPrevious(unbounded: Bool) -> String? {
            if previousAtomRepeats == true {
                return "repeats a group that holds a repetition (as in (a+)+), which can take exponential time"
            }
            if unbounded { repetitions += 1 }
            groups[groups.count - 1] = true
            previousAtomRepeats = nil
            return repetitions > maximumRepetitions
                ? "holds more than \(maximumRepetitions) unbounded repetitions (*, +, {n,})" : nil
        }
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\\":
                guard index < characters.count else { return nil }
                let escaped = characters[index]
                index += 1
                if escaped.isNumber && escaped != "0" || escaped == "k" {
                    return "uses a backreference, which can take exponential time"
                }
                if escaped == "Q" {
                    // Quoted text up to \E: literal characters.
                    while index < characters.count
                        && !(characters[index] == "\\" && index + 1 < characters.count && characters[index + 1] == "E")
                    { index += 1 }
                    index += 2
                }
                previousAtomRepeats = false
            case "[":
                // A set, which ICU lets nest: one atom.
                var depth = 1
                if index < characters.count && characters[index] == "^" { index += 1 }
                if index < characters.count && characters[index] == "]" { index += 1 }
                while index < characters.count && depth > 0 {
                    switch characters[index] {
                    case "\\": index += 1
                    case "[": depth += 1
                    case "]": depth -= 1
                    default: break
                    }
                    index += 1
                }
                previousAtomRepeats = false
            case "(":
                groups.append(false)
                previousAtomRepeats = nil
            case ")":
                let inner = groups.count > 1 ? groups.removeLast() : false
                if inner { groups[groups.count - 1] = true }
                previousAtomRepeats = inner
            case "*", "+":
                if let problem = repeatPrevious(unbounded: true) { return problem }
                // A lazy or possessive suffix is part of this quantifier.
                if index < characters.count && (characters[index] == "?" || characters[index] == "+") { index += 1 }
            case "?":
                previousAtomRepeats = nil
                if index < characters.count && (characters[index] == "?" || characters[index] == "+") { index += 1 }
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else {
                    previousAtomRepeats = false
                    continue
                }
                let bounds = String(characters[index..<close]).split(separator: ",", omittingEmptySubsequences: false)
                index = close + 1
                guard bounds.count <= 2, bounds.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { continue }
                let upper = bounds.count == 2 ? Int(bounds[1]) : Int(bounds[0])
                if upper == nil || upper! > 1 {
                    if let problem = repeatPrevious(unbounded: upper == nil) { return problem }
                }
                if index < characters.count && (characters[index] == "?" || characters[index] == "+") { index += 1 }
            case "|", "^", "$":
                previousAtomRepeats = nil
            default:
                previousAtomRepeats = false
            }
        }
        return nil
    }
}
