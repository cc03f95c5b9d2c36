import Foundation

/// Parses a format string and its arguments into a ``PredicateExpression``.
///
/// Precedence, loosest first: `OR`, `AND`, `NOT`, comparisons, then the operators within an
/// operand (``PredicateInfixOperator``). `AND` and `OR` associate to the left. Arguments are bound as constants as their placeholders are met.
struct PredicateParser {
    let format: String
    let scalars: [Unicode.Scalar]
    var tokens: [PredicateToken]
    var index = 0
    let arguments: [Any?]
    var argumentIndex = 0
    var depth = 0
    /// The last `&` or `|` read, for the hint when it was meant as `&&` or `||`.
    var lastBitwiseToken: PredicateToken?

    static let maximumDepth = 200
    /// Tokens read, counting every re-read after the parser backtracks (a `(` that opens an
    /// expression, not a predicate, is read again as one), and the most it may read: backtracking
    /// at nested parentheses doubles per level, so without a bound 124 bytes of `((TERNARY((…`
    /// took minutes (Docs/Predicates.md, "Limits").
    var work = 0
    static let workPerToken = 32
    static let minimumWork = 100_000
    var workLimit: Int { Self.minimumWork + Self.workPerToken * tokens.count }
    /// The longest format string accepted, in UTF-8 bytes (Docs/Predicates.md, "Limits").
    static let maximumFormatLength = 256 << 10

    /// Parses `format`, binding `arguments` to its placeholders in order.
    ///
    /// - Throws: `PersistenceError.Code.invalidPredicate` for syntax errors and for arguments
    ///   that are missing, left over or of the wrong kind; `.unsupportedPredicate` for constructs
    ///   of the format language that are not supported. Both carry the position.
    static func parse(format: String, arguments: [Any?]) throws -> PredicateExpression {
        guard format.utf8.count <= maximumFormatLength else {
            throw PersistenceError.predicateFormatTooLong(length: format.utf8.count, limit: maximumFormatLength)
        }
        var lexer = PredicateLexer(format: format)
        var parser = PredicateParser(
            format: format, scalars: Array(format.unicodeScalars), tokens: try lexer.tokenize(), arguments: arguments)
        let expression = try parser.parseOr()
        guard case .end = parser.current.kind else {
            throw parser.syntaxError(
                "expected AND, OR or the end of the predicate, found \(parser.describe(parser.current))")
        }
        guard parser.argumentIndex == arguments.count else {
            throw PersistenceError.predicateArguments(
                "\(Self.counted(arguments.count, "argument")) given, but the format has "
                    + "\(Self.counted(parser.argumentIndex, "placeholder"))",
                format: format, position: parser.scalars.count)
        }
        return expression
    }

    // MARK: - Tokens

    var current: PredicateToken { tokens[index] }

    var next: PredicateToken { tokens[min(index + 1, tokens.count - 1)] }

    @discardableResult
    mutating func advance() -> PredicateToken {
        work += 1
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    func isSymbol(_ symbol: String, _ token: PredicateToken? = nil) -> Bool {
        (token ?? current).kind == .symbol(symbol)
    }

    func isKeyword(_ keyword: String, _ token: PredicateToken? = nil) -> Bool {
        (token ?? current).kind == .keyword(keyword)
    }

    mutating func expect(_ symbol: String, _ what: String) throws {
        guard isSymbol(symbol) else { throw syntaxError("expected \(what), found \(describe(current))") }
        advance()
    }

    /// The source text between two scalar positions.
    func text(from start: Int, to end: Int) -> String {
        PredicateLexer.text(scalars[start..<max(start, end)])
    }

    func describe(_ token: PredicateToken) -> String {
        if case .end = token.kind { return "the end of the format" }
        return "'\(text(from: token.position, to: token.end))'"
    }

    /// Throws once the parser has read more tokens than ``workLimit``.
    func checkWork() throws {
        guard work <= workLimit else {
            throw syntaxError(
                "its parentheses are nested so that parsing would read over \(workLimit) tokens; remove needless ones")
        }
    }

    func syntaxError(_ problem: String, at token: PredicateToken? = nil) -> PersistenceError {
        PersistenceError.predicateSyntax(problem, format: format, position: (token ?? current).position)
    }

    func unsupported(_ construct: String, at token: PredicateToken? = nil, advice: String? = nil) -> PersistenceError {
        PersistenceError.unsupportedPredicate(
            construct, format: format, position: (token ?? current).position, advice: advice)
    }

    // MARK: - Predicates

    mutating func parseOr() throws -> PredicateExpression {
        var operands = [try parseAnd()]
        while isKeyword("OR") || isSymbol("||") {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    mutating func parseAnd() throws -> PredicateExpression {
        var operands = [try parseNot()]
        while isKeyword("AND") || isSymbol("&&") {
            advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    mutating func parseNot() throws -> PredicateExpression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw syntaxError("the predicate is nested more than \(Self.maximumDepth) levels deep")
        }
        try checkWork()
        if isKeyword("NOT") || isSymbol("!") {
            advance()
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws -> PredicateExpression {
        if isSymbol("(") {
            // A parenthesised predicate, or a comparison whose left operand starts with a
            // parenthesised expression (`(flags & 4) == 4`): try the first, then the second.
            let saved = (index, argumentIndex, lastBitwiseToken)
            do {
                advance()
                let inner = try parseOr()
                try expect(")", "')' to close the '('")
                return inner
            } catch {
                try checkWork()  // Out of work: say so, rather than try the other reading.
                let failedAt = index
                (index, argumentIndex, lastBitwiseToken) = saved
                do {
                    return try parseComparison()
                } catch let second {
                    try checkWork()
                    // Report the attempt that read further.
                    if index >= failedAt { throw second }
                    index = failedAt
                    throw error
                }
            }
        }
        if isKeyword("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if isKeyword("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        return try parseComparison()
    }

    mutating func parseComparison() throws -> PredicateExpression {
        var modifier = PredicateExpression.Modifier.direct
        var negated = false
        if case .keyword(let word) = current.kind, ["ANY", "SOME", "ALL", "NONE"].contains(word) {
            advance()
            modifier = word == "ALL" ? .all : .any
            negated = word == "NONE"
        }
        let lhsStart = current
        let lhs = try parseOperand()
        let lhsText = text(from: lhsStart.position, to: tokens[index - 1].end)
        let (op, operatorToken) = try parseOperator(after: lhsText)
        let options = try parseOptions()
        let rhsStart = current
        if case .end = current.kind {
            throw syntaxError("expected a value or key path after \(describe(operatorToken))")
        }
        lastBitwiseToken = nil
        let rhs = try parseOperand()
        if let bitwise = lastBitwiseToken, isComparisonOperator(current) {
            let symbol = bitwise.kind == .symbol("&") ? "&&" : "||"
            throw syntaxError(
                "'\(text(from: bitwise.position, to: bitwise.end))' is a bitwise operator between values "
                    + "(did you mean '\(symbol)' to combine comparisons?)", at: bitwise)
        }
        try validate(op, rhs: rhs, at: rhsStart)
        let comparison = PredicateExpression.comparison(
            PredicateExpression.Comparison(lhs, op, rhs, modifier: modifier, options: options))
        return negated ? .not(comparison) : comparison
    }

    mutating func parseOperator(after lhs: String) throws -> (PredicateExpression.Operator, PredicateToken) {
        let token = current
        let op: PredicateExpression.Operator? =
            switch token.kind {
            case .symbol("=="), .symbol("="): .equalTo
            case .symbol("!="), .symbol("<>"): .notEqualTo
            case .symbol("<"): .lessThan
            case .symbol("<="), .symbol("=<"): .lessThanOrEqualTo
            case .symbol(">"): .greaterThan
            case .symbol(">="), .symbol("=>"): .greaterThanOrEqualTo
            case .keyword("BETWEEN"): .between
            case .keyword("IN"): .in
            case .keyword("CONTAINS"): .contains
            case .keyword("BEGINSWITH"): .beginsWith
            case .keyword("ENDSWITH"): .endsWith
            case .keyword("LIKE"): .like
            case .keyword("MATCHES"): .matches
            default: nil
            }
        if let op {
            advance()
            return (op, token)
        }
        if isSymbol(":=") { throw unsupported("assignment (':=')") }
        var hint = ""
        if isKeyword("NOT") {
            hint = " (to negate a comparison, put NOT before it: NOT (\(lhs) IN …))"
        } else if isKeyword("AND") || isKeyword("OR") || current.kind == .end || isSymbol(")") {
            hint = " (a key alone is not a predicate; write '\(lhs) == YES')"
        }
        throw syntaxError("expected a comparison operator after '\(lhs)', found \(describe(token))\(hint)")
    }

    /// `[c]`, `[d]`, `[cd]` after an operator.
    mutating func parseOptions() throws -> PredicateExpression.Options {
        guard isSymbol("[") else { return [] }
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw syntaxError(
                "expected comparison options such as c, d, cd, n or l inside '[…]', found \(describe(current))")
        }
        var options: PredicateExpression.Options = []
        for letter in letters {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            case "l", "L": options.insert(.localeSensitive)
            default:
                throw syntaxError("unknown comparison option '\(letter)'; use [c], [d], [n] or [l], or several: [cd]")
            }
        }
        advance()
        try expect("]", "']' to close the comparison options")
        return options
    }

    /// Whether the token is a comparison operator.
    func isComparisonOperator(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .symbol(let symbol): ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"].contains(symbol)
        case .keyword(let word):
            ["BETWEEN", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES"].contains(word)
        default: false
        }
    }

    /// Checks what can be checked without the entity: BETWEEN bounds and MATCHES patterns.
    func validate(_ op: PredicateExpression.Operator, rhs: PredicateExpression.Operand, at token: PredicateToken)
        throws
    {
        switch (op, rhs) {
        case (.between, .constant(let value)):
            guard value.elements?.count == 2 else {
                throw syntaxError(
                    "BETWEEN needs two bounds, as in BETWEEN {1, 10}; found \(value.kindPhrase)"
                        + (value.elements.map { " of \($0.count)" } ?? ""), at: token)
            }
        case (.between, .aggregate(let elements)) where elements.count != 2:
            throw syntaxError("BETWEEN needs two bounds, as in BETWEEN {1, 10}", at: token)
        case (.matches, .constant(.string(let pattern))):
            if let problem = PredicateRegex.backtrackingProblem(in: pattern) {
                throw syntaxError("the MATCHES pattern \(problem)", at: token)
            }
            guard PredicateRegex.isValid(pattern) else {
                throw syntaxError("the MATCHES pattern is not a valid regular expression", at: token)
            }
        default: break
        }
    }
}

extension PredicateParser {
    /// "1 argument", "2 arguments".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
