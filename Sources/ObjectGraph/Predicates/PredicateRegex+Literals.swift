extension PredicateRegex {
    /// The runs of literal text that every string the pattern matches contains, as read from
    /// `pattern` (already folded as the regex is compiled): a query engine signs them to rule
    /// rows out before running the regex. Conservative: what it cannot read for certain ends a
    /// run, and a pattern it cannot read at all (a top-level `|`, inline flags such as `(?i)`,
    /// quoted text) gives no runs.
    ///
    /// Only the top level of the pattern counts: characters inside groups and sets, classes
    /// (`.`, `\w`, `\p{…}`), anchors and escapes that are not a punctuation character end a run,
    /// and a quantified character leaves it (`ab?c` requires `a` and `c`).
    ///
    /// With `caseInsensitive`, only characters whose case-insensitive matches are themselves and
    /// their ASCII other case count (digits, punctuation, space and the letters `b c d e g m o p q
    /// r u v x z`): ICU's case-insensitive matching lets `K` (Kelvin sign) match `k`, `ſ` match
    /// `s`, `ß` match `ss` and ligatures match `fi`, `st` and the like, which a folded column
    /// need not hold. Other characters end a run.
    ///
    /// - Complexity: O(*n*) in the pattern's length.
    static func requiredLiterals(in pattern: String, caseInsensitive: Bool) -> [String] {
        let characters = Array(pattern.unicodeScalars)
        var runs: [String] = []
        var run = String.UnicodeScalarView()
        func flush() {
            if !run.isEmpty { runs.append(String(run)) }
            run = String.UnicodeScalarView()
        }
        func append(_ scalar: Unicode.Scalar) {
            if scalar == "\0" || (caseInsensitive && !isCaseStable(scalar)) {
                flush()
            } else {
                run.append(scalar)
            }
        }
        /// Skips a group or set opened at `index` (its first character), nested ones included.
        func skipBracketed(from start: Int, open: Unicode.Scalar, close: Unicode.Scalar) -> Int {
            var depth = 0
            var index = start
            if open == "[" {
                // `[^]…]` and `[]…]`: a `]` first in a set is one of its characters.
                depth = 1
                index += 1
                if index < characters.count && characters[index] == "^" { index += 1 }
                if index < characters.count && characters[index] == "]" { index += 1 }
            }
            while index < characters.count {
                switch characters[index] {
                case "\\": index += 1
                case "[" where open == "(":
                    // A set inside a group may hold an unbalanced parenthesis.
                    index = skipBracketed(from: index, open: "[", close: "]") - 1
                case open: depth += 1
                case close:
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else { return [] }
                let escaped = characters[index + 1]
                index += 2
                if escaped.properties.isAlphabetic || escaped.properties.numericType != nil {
                    // A class, an anchor, a code point (\x, \u, \N{…}, \0…) or quoted text.
                    if escaped == "Q" { return [] }
                    flush()
                    if index < characters.count && characters[index] == "{" {
                        index = skipBracketed(from: index, open: "{", close: "}")
                    }
                } else {
                    append(escaped)
                }
            case "(":
                if index + 1 < characters.count && characters[index + 1] == "?" {
                    let next = index + 2 < characters.count ? characters[index + 2] : "?"
                    // Flags (`(?i)`, `(?x:…)`) or a comment change how what follows is read.
                    if ![":", "=", "!", "<", ">"].contains(next) { return [] }
                }
                flush()
                index = skipBracketed(from: index, open: "(", close: ")")
            case "[":
                flush()
                index = skipBracketed(from: index, open: "[", close: "]")
            case "|":
                return []
            case "*", "?", "+", "{":
                // The quantified character is not required (or not as a run with its neighbours).
                if !run.isEmpty { run.removeLast() }
                flush()
                index += 1
                if character == "{", let close = characters[index...].firstIndex(of: "}") { index = close + 1 }
            case ".", "^", "$", ")", "]", "}":
                flush()
                index += 1
            default:
                append(character)
                index += 1
            }
        }
        flush()
        return runs
    }

    /// Whether ICU's case-insensitive matching pairs `scalar` only with itself and its other
    /// ASCII case.
    private static func isCaseStable(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        switch scalar {
        case "a"..."z", "A"..."Z":
            return "bcdegmopqruvxzBCDEGMOPQRUVXZ".unicodeScalars.contains(scalar)
        default:
            return true
        }
    }
}
