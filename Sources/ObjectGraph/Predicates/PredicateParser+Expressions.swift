extension PredicateParser {
    // MARK: - Arithmetic and bitwise operators

    /// Operands joined by operators that bind tighter than `precedence` (see
    /// ``PredicateInfixOperator``): `price * 2 + 1` is `add:to:(multiply:by:(price, 2), 1)`.
    mutating func parseBinary(tighterThan precedence: Int) throws -> Operand {
        var lhs = try parseUnary()
        while case .symbol(let symbol) = current.kind, let op = PredicateInfixOperator(rawValue: symbol),
            op.precedence > precedence
        {
            let token = advance()
            if op == .bitwiseAnd || op == .bitwiseOr { lastBitwiseToken = token }
            if case .end = current.kind { throw syntaxError("expected a value after \(describe(token))") }
            let rhs = try nested {
                try $0.parseBinary(tighterThan: op.isRightAssociative ? op.precedence - 1 : op.precedence)
            }
            lhs = .function(op.function.rawValue, [lhs, rhs])
        }
        return lhs
    }

    /// `-x` (`from:subtract:(0, x)`; `-5` is the constant), `~x` (`onesComplement:(x)`), or an
    /// operand with its suffixes.
    private mutating func parseUnary() throws -> Operand {
        let token = current
        if isSymbol("-") {
            if case .number(let text, let isInteger) = next.kind {
                advance()
                advance()
                return .constant(try number(text, isInteger: isInteger, negative: true, at: token))
            }
            advance()
            return .function(
                PredicateFunction.subtract.rawValue, [.constant(.int(0)), try nested { try $0.parseUnary() }])
        }
        if isSymbol("~") {
            advance()
            return .function(PredicateFunction.onesComplement.rawValue, [try nested { try $0.parseUnary() }])
        }
        return try parsePostfix()
    }

    /// `parse` one level deeper, bounded like parentheses (`- - - x`, `2 ** 2 ** 2`).
    private mutating func nested(_ parse: (inout Self) throws -> Operand) throws -> Operand {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw syntaxError("the predicate is nested more than \(Self.maximumDepth) levels deep")
        }
        return try parse(&self)
    }

    // MARK: - Index expressions

    /// `[FIRST]`, `[LAST]`, `[SIZE]` or `[expression]` after a collection.
    mutating func parseIndex() throws -> PredicateExpression.Index {
        advance()
        let index: PredicateExpression.Index
        switch current.kind {
        case .keyword("FIRST"):
            advance()
            index = .first
        case .keyword("LAST"):
            advance()
            index = .last
        case .keyword("SIZE"):
            advance()
            index = .size
        case .symbol("]"):
            throw syntaxError("expected an index, FIRST, LAST or SIZE inside '[…]'")
        default:
            index = .at(try parseOperand())
        }
        try expect("]", "']' to close the index")
        return index
    }

    // MARK: - Functions

    /// `name(arguments)` or `name:(arguments)` after the name's first word; `FUNCTION(…)` and
    /// `TERNARY(…)`.
    mutating func parseFunction(_ first: String, at token: PredicateToken) throws -> Operand {
        switch first.uppercased() {
        case "TERNARY" where isSymbol("("): return try parseTernary()
        case "FUNCTION" where isSymbol("("): return try parseSelectorFunction(at: token)
        default: break
        }
        var name = first
        while isSymbol(":") {
            advance()
            name += ":"
            if case .identifier(let part) = current.kind, isSymbol(":", next) {
                advance()
                name += part
            }
        }
        guard isSymbol("(") else {
            throw syntaxError("expected '(' after the function name '\(name)', found \(describe(current))")
        }
        let unknown = unsupported(
            "the function '\(name)'", at: token,
            advice: "Use one of \(PredicateFunction.allCases.map(\.rawValue).joined(separator: ", ")).")
        guard PredicateFunction(formatName: name) != nil else { throw unknown }
        let arguments = try parseArguments(of: name)
        guard let function = PredicateFunction(formatName: name, argumentCount: arguments.count) else { throw unknown }
        guard arguments.count == function.arity else {
            throw syntaxError(
                "the function '\(function.rawValue)' takes \(Self.counted(function.arity, "argument")), "
                    + "found \(arguments.count)", at: token)
        }
        return .function(function.rawValue, arguments)
    }

    /// `(a, b, …)` after a function's name.
    private mutating func parseArguments(of name: String) throws -> [Operand] {
        try expect("(", "'(' after '\(name)'")
        var arguments: [Operand] = []
        if !isSymbol(")") {
            arguments.append(try parseOperand())
            while isSymbol(",") {
                advance()
                arguments.append(try parseOperand())
            }
        }
        try expect(")", "',' or ')' after the arguments of '\(name)'")
        return arguments
    }

    /// `TERNARY(predicate, a, b)`.
    private mutating func parseTernary() throws -> Operand {
        try expect("(", "'(' after TERNARY")
        let condition = try parseOr()
        try expect(",", "',' after the TERNARY's predicate")
        let whenTrue = try parseOperand()
        try expect(",", "',' after the TERNARY's first value")
        let whenFalse = try parseOperand()
        try expect(")", "')' to close the TERNARY")
        return .ternary(condition, whenTrue, whenFalse)
    }

    /// `FUNCTION(receiver, 'selector', arguments…)`: Apple calls a method of the receiver by
    /// its Objective-C selector. It parses (as `.function("FUNCTION", [receiver, selector, …])`,
    /// printing back the same), and a fetch refuses it naming the selector.
    private mutating func parseSelectorFunction(at token: PredicateToken) throws -> Operand {
        let arguments = try parseArguments(of: "FUNCTION")
        guard arguments.count >= 2, case .constant(.string) = arguments[1] else {
            throw syntaxError(
                "FUNCTION takes a receiver and a selector name in quotes, as in FUNCTION(SELF, 'name')", at: token)
        }
        return .function("FUNCTION", arguments)
    }

    /// `CAST(expression, "type")` of anything but a literal: `castObject:toType:`, computed
    /// per object (a date as `NSNumber` is its seconds since 2001).
    mutating func parseComputedCast(at castToken: PredicateToken) throws -> Operand {
        let value = try parseOperand()
        try expect(",", "',' after the value to CAST")
        guard case .string(let type) = current.kind else {
            throw syntaxError("expected the type to CAST to as a quoted string, found \(describe(current))")
        }
        let typeToken = advance()
        try expect(")", "')' to close the CAST")
        guard PredicateFunction.castTypes.contains(type) else {
            throw unsupported(
                "CAST of a computed value to '\(type)'", at: typeToken,
                advice:
                    "Computed values can be cast to \(PredicateFunction.castTypes.sorted().joined(separator: ", ")).")
        }
        return .function(PredicateFunction.cast.rawValue, [value, .constant(.string(type))])
    }

    // MARK: - Composed key paths

    /// `base.keys`.
    func member(_ keys: [String], of base: Operand, at token: PredicateToken) throws -> Operand {
        switch base {
        case .evaluatedObject, .variable, .index: return .keyPath(base, keys)
        case .keyPath(let root, let baseKeys): return .keyPath(root, baseKeys + keys)
        default:
            throw unsupported(
                "a key path after a constant, a collection operator, a function or a SUBQUERY", at: token,
                advice: "Apply key paths before the collection operator, as in fruits.@sum.price.")
        }
    }

    /// The operand of a `%K` argument (a key path from `SELF`) continuing `base`.
    func appending(_ suffix: Operand, to base: Operand, at token: PredicateToken) throws -> Operand {
        switch suffix {
        case .evaluatedObject: return base
        case .keyPath(.evaluatedObject, let keys): return try member(keys, of: base, at: token)
        case .collection(let inner, let function, let keys):
            return .collection(try appending(inner, to: base, at: token), function, keys)
        default:
            throw syntaxError("the %K argument after '.' is not a key path", at: token)
        }
    }
}
