/// One token of a predicate format string, with its position (in Unicode scalars from 0).
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A key; `#`-escaped keys are never keywords.
        case identifier(String)
        /// A reserved word, upper-cased (`AND`, `BEGINSWITH`, `SELF`, …).
        case keyword(String)
        case string(String)
        /// A number literal's text, without sign.
        case number(String, isInteger: Bool)
        /// `$name`.
        case variable(String)
        /// A placeholder's conversion after `%`: `@`, `K`, `d`, `lld`, `f`, …
        case placeholder(String)
        /// `@count`, `@sum`, … (the name without `@`).
        case collectionOperator(String)
        /// An operator or punctuation: `==`, `(`, `,`, `.`, `+`, …
        case symbol(String)
        case end
    }

    let kind: Kind
    let position: Int
    /// The position just after the token.
    let end: Int
}

/// Splits a format string into tokens.
///
/// Keywords are case-insensitive; `#` before a word makes it a key even if it is reserved
/// (`#size`). Quoted strings are literals: `%@`, `%K` and `$name` inside quotes are text.
struct PredicateLexer {
    /// Apple's reserved words, plus `SUBQUERY` and `CAST`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    /// The conversions accepted after `%`.
    static let placeholders: Set<String> = [
        "@", "K", "d", "i", "u", "ld", "li", "lu", "lld", "lli", "llu", "hd", "hi", "hu", "qd", "qi", "qu", "f", "lf",
        "g", "e",
    ]

    private static let symbols = [
        "==", "!=", "<>", "<<", ">>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":=", "=", "<", ">", "!", "(", ")", "{",
        "}", "[", "]", ",", ".", "+", "-", "*", "/", "&", "|", "^", "~", ":",
    ].map { Array($0.unicodeScalars) }

    let format: String
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    /// Every token, ending with `.end`.
    mutating func tokenize() throws -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            skipWhitespace()
            let start = index
            guard index < scalars.count else {
                tokens.append(PredicateToken(kind: .end, position: start, end: start))
                return tokens
            }
            let kind = try nextKind()
            tokens.append(PredicateToken(kind: kind, position: start, end: index))
        }
    }

    private mutating func skipWhitespace() {
        while index < scalars.count, Self.isWhitespace(scalars[index]) { index += 1 }
    }

    /// Unicode whitespace, answered without a property lookup for ASCII.
    @inline(__always)
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    private mutating func nextKind() throws -> PredicateToken.Kind {
        let start = index
        let scalar = scalars[index]
        switch scalar {
        case "\"", "'": return .string(try string(quote: scalar))
        case "0"..."9": return try number()
        case "$":
            index += 1
            let name = word()
            guard !name.isEmpty else { throw error("expected a variable name after '$'", at: start) }
            return .variable(name)
        case "@":
            index += 1
            let name = word()
            guard !name.isEmpty else {
                throw error("expected a collection operator such as @count after '@'", at: start)
            }
            return .collectionOperator(name)
        case "#":
            index += 1
            let name = word()
            guard !name.isEmpty else { throw error("expected a key after '#'", at: start) }
            return .identifier(name)
        case "%": return try placeholder()
        case _ where Self.isWordStart(scalar):
            let name = word()
            let upper = name.uppercased()
            return Self.reservedWords.contains(upper) ? .keyword(upper) : .identifier(name)
        default:
            for symbol in Self.symbols where matches(symbol) {
                index += symbol.count
                return .symbol(Self.text(symbol[...]))
            }
            throw error("unexpected character '\(scalar)'", at: start)
        }
    }

    private func matches(_ symbol: [Unicode.Scalar]) -> Bool {
        guard index + symbol.count <= scalars.count else { return false }
        for (offset, scalar) in symbol.enumerated() where scalars[index + offset] != scalar { return false }
        return true
    }

    static func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == "_" || isASCIILetter(scalar) }
        return scalar.properties.isAlphabetic
    }

    /// ASCII answers without a property lookup: letters, digits and `_` (the only ASCII
    /// connector punctuation; ASCII has no marks).
    static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == "_" || isASCIILetter(scalar) || ("0"..."9").contains(scalar) }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .connectorPunctuation: return true
        default: return isWordStart(scalar)
        }
    }

    /// The scalars as a string, encoded straight into the string's storage.
    static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(unsafeUninitializedCapacity: scalars.count * 4) { buffer in
            var count = 0
            for scalar in scalars {
                UTF8.encode(scalar) { byte in
                    buffer[count] = byte
                    count += 1
                }
            }
            return count
        }
    }

    @inline(__always)
    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private mutating func word() -> String {
        let start = index
        if index < scalars.count, Self.isWordStart(scalars[index]) {
            index += 1
            while index < scalars.count, Self.isWordPart(scalars[index]) { index += 1 }
        }
        return Self.text(scalars[start..<index])
    }

    private mutating func number() throws -> PredicateToken.Kind {
        let start = index
        var isInteger = true
        if scalars[index] == "0", index + 1 < scalars.count,
            ["x", "X", "o", "O", "b", "B"].contains(scalars[index + 1])
        {
            index += 2
            while index < scalars.count, scalars[index].properties.isASCIIHexDigit { index += 1 }
        } else {
            digits()
            if index + 1 < scalars.count, scalars[index] == ".", isDigit(scalars[index + 1]) {
                isInteger = false
                index += 1
                digits()
            }
            if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
                var next = index + 1
                if next < scalars.count, scalars[next] == "+" || scalars[next] == "-" { next += 1 }
                if next < scalars.count, isDigit(scalars[next]) {
                    isInteger = false
                    index = next
                    digits()
                }
            }
        }
        if index < scalars.count, Self.isWordPart(scalars[index]) {
            throw error("a number cannot be followed directly by '\(scalars[index])'", at: index)
        }
        return .number(Self.text(scalars[start..<index]), isInteger: isInteger)
    }

    private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private mutating func digits() {
        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
    }

    private mutating func placeholder() throws -> PredicateToken.Kind {
        let start = index
        index += 1
        for length in stride(from: 3, through: 1, by: -1) where index + length <= scalars.count {
            let candidate = Self.text(scalars[index..<index + length])
            if Self.placeholders.contains(candidate) {
                index += length
                return .placeholder(candidate)
            }
        }
        if index < scalars.count, isDigit(scalars[index]) {
            throw PersistenceError.unsupportedPredicate(
                "positional placeholders such as '%1$@'", format: format, position: start)
        }
        let shown = index < scalars.count ? "%\(scalars[index])" : "%"
        throw error(
            "'\(shown)' is not a placeholder; use %@ for values, %K for key paths, %d or %f for numbers", at: start)
    }

    private mutating func string(quote: Unicode.Scalar) throws -> String {
        let start = index
        index += 1
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == quote { return String(result) }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard index < scalars.count else { break }
            let escape = scalars[index]
            index += 1
            switch escape {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "a": result.append("\u{07}")
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "v": result.append("\u{0B}")
            case "\\", "'", "\"": result.append(escape)
            case "u": result.append(try unicodeEscape(at: index - 2))
            default:
                throw error("unknown escape '\\\(escape)' in a string literal", at: index - 2)
            }
        }
        throw error("unterminated string literal (add the closing \(quote))", at: start)
    }

    /// The scalar of `\uXXXX` (a UTF-16 unit; a surrogate pair takes two escapes).
    private mutating func unicodeEscape(at start: Int) throws -> Unicode.Scalar {
        let high = try hexUnit(at: start)
        if (0xD800..<0xDC00).contains(high), matches(Array("\\u".unicodeScalars)) {
            index += 2
            let low = try hexUnit(at: index - 2)
            if (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            {
                return scalar
            }
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw error("'\\u' escape is not a valid Unicode scalar", at: start)
        }
        return scalar
    }

    private mutating func hexUnit(at start: Int) throws -> UInt32 {
        guard index + 4 <= scalars.count,
            let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16)
        else { throw error("'\\u' must be followed by four hexadecimal digits", at: start) }
        index += 4
        return value
    }

    private func error(_ message: String, at position: Int) -> PersistenceError {
        PersistenceError.predicateSyntax(message, format: format, position: position)
    }
}
