import Foundation

extension PredicateParser {
    typealias Operand = PredicateExpression.Operand

    // MARK: - Operands

    mutating func parseOperand() throws -> Operand {
        // Parenthesised and nested list operands recurse too: bound them like expressions.
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw syntaxError("the predicate is nested more than \(Self.maximumDepth) levels deep")
        }
        try checkWork()
        return try parseBinary(tighterThan: 0)
    }

    /// An operand with its `.key`, `.@function` and `[index]` suffixes.
    mutating func parsePostfix() throws -> Operand {
        var operand = try parsePrimaryOperand()
        while true {
            if isSymbol("[") {
                operand = .index(operand, try parseIndex())
                continue
            }
            guard isSymbol(".") else { return operand }
            let dot = advance()
            operand = try parseMember(of: operand, after: dot)
        }
    }

    /// `.key` or `.@function` after an operand.
    private mutating func parseMember(of base: Operand, after dot: PredicateToken) throws -> Operand {
        let token = advance()
        switch token.kind {
        case .identifier(let key):
            return try member([key], of: base, at: token)
        case .placeholder("K"):
            // `owner.%K`, `%K.%K`: the argument's key path continues the one before it.
            return try appending(try bindPlaceholder("K", at: token), to: base, at: token)
        case .collectionOperator(let name):
            guard let function = PredicateExpression.CollectionFunction(rawValue: name.lowercased()) else {
                throw unsupported(
                    "the collection operator '@\(name)'", at: token, advice: "Use @count, @sum, @avg, @min or @max.")
            }
            var keys: [String] = []
            while isSymbol("."), case .identifier(let key) = next.kind {
                guard function != .count else {
                    throw syntaxError("@count takes no key path after it; write the key path before it", at: next)
                }
                advance()
                advance()
                keys.append(key)
            }
            return .collection(base, function, keys)
        case .keyword(let word):
            throw syntaxError(
                "expected a key after '.', found the reserved word '\(word)' (write #\(word.lowercased()) to use it as a key)",
                at: token)
        default:
            throw syntaxError(
                "expected a key or a collection operator such as @count after '.', found \(describe(token))", at: token)
        }
    }

    private mutating func parsePrimaryOperand() throws -> Operand {
        let token = current
        switch token.kind {
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .number(let text, let isInteger):
            advance()
            return .constant(try number(text, isInteger: isInteger, negative: false, at: token))
        case .symbol("("):
            advance()
            let inner = try parseOperand()
            try expect(")", "')' to close the '('")
            return inner
        case .symbol("{"):
            return try parseList()
        case .variable(let name):
            advance()
            return .variable(name)
        case .placeholder(let conversion):
            advance()
            return try bindPlaceholder(conversion, at: token)
        case .identifier(let name):
            advance()
            if isSymbol("(") || isSymbol(":") { return try parseFunction(name, at: token) }
            return .keyPath(.evaluatedObject, [name])
        case .keyword(let word):
            return try parseKeywordOperand(word, at: token)
        case .collectionOperator(let name):
            throw syntaxError("'@\(name)' needs a collection before it, as in 'fruits.@\(name)'")
        default:
            throw syntaxError("expected a value or key path, found \(describe(token))")
        }
    }

    private mutating func parseKeywordOperand(_ word: String, at token: PredicateToken) throws -> Operand {
        switch word {
        case "YES", "TRUE":
            advance()
            return .constant(.bool(true))
        case "NO", "FALSE":
            advance()
            return .constant(.bool(false))
        case "NIL", "NULL":
            advance()
            return .constant(.null)
        case "SELF":
            advance()
            return .evaluatedObject
        case "SUBQUERY":
            return try parseSubquery()
        case "CAST":
            return try parseCast()
        case "FIRST", "LAST", "SIZE":
            throw unsupported(
                "\(word) outside an index expression", advice: "Write it in brackets after a collection: tags[\(word)]."
            )
        case "ANYKEY", "FETCH":
            throw unsupported(word)
        case "ANY", "SOME", "ALL", "NONE":
            throw syntaxError("\(word) must come first in a comparison, as in '\(word) fruits.price > 10'")
        default:
            throw syntaxError("expected a value or key path, found the reserved word '\(word)'")
        }
    }

    /// `{a, b, …}`: a constant array when every element is constant.
    private mutating func parseList() throws -> Operand {
        advance()
        var elements: [Operand] = []
        if !isSymbol("}") {
            elements.append(try parseOperand())
            while isSymbol(",") {
                advance()
                elements.append(try parseOperand())
            }
        }
        try expect("}", "',' or '}' in the list")
        var constants: [PredicateValue] = []
        for element in elements {
            guard case .constant(let value) = element else { return .aggregate(elements) }
            constants.append(value)
        }
        return .constant(.array(constants))
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    private mutating func parseSubquery() throws -> Operand {
        advance()
        try expect("(", "'(' after SUBQUERY")
        let collection = try parseOperand()
        try expect(",", "',' after the SUBQUERY's collection")
        guard case .variable(let variable) = current.kind else {
            throw syntaxError(
                "expected a variable such as $x as the SUBQUERY's second argument, found \(describe(current))")
        }
        advance()
        try expect(",", "',' after the SUBQUERY's variable")
        let predicate = try parseOr()
        try expect(")", "')' to close the SUBQUERY")
        return .subquery(collection, variable: variable, predicate)
    }

    // MARK: - Literals

    /// A number literal; integers that do not fit in 64 bits are errors, not doubles.
    func number(_ text: String, isInteger: Bool, negative: Bool, at token: PredicateToken) throws -> PredicateValue {
        guard isInteger else {
            guard let value = Double(text) else { throw syntaxError("'\(text)' is not a valid number", at: token) }
            return .double(negative ? -value : value)
        }
        let lower = text.lowercased()
        let radix = lower.hasPrefix("0x") ? 16 : lower.hasPrefix("0o") ? 8 : lower.hasPrefix("0b") ? 2 : 10
        let digits = radix == 10 ? text : String(text.dropFirst(2))
        guard let magnitude = UInt64(digits, radix: radix) else {
            throw syntaxError("the integer '\(text)' does not fit in 64 bits", at: token)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw syntaxError("the integer '-\(text)' does not fit in 64 bits", at: token)
            }
            return .int(Int64(bitPattern: 0 &- magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else {
            throw syntaxError("the integer '\(text)' does not fit in 64 bits", at: token)
        }
        return .int(Int64(magnitude))
    }

    /// `CAST(literal, "Type")`: how constants without a literal syntax print. Casts of anything
    /// but a literal are not supported.
    private mutating func parseCast() throws -> Operand {
        let castToken = advance()
        try expect("(", "'(' after CAST")
        let valueToken = current
        let text: String
        let isNumber: Bool
        let afterNext = tokens[min(index + 2, tokens.count - 1)]
        switch (current.kind, next.kind) {
        case (.string(let string), .symbol(",")):
            (text, isNumber) = (string, false)
            advance()
        case (.number(let digits, _), .symbol(",")):
            (text, isNumber) = (digits, true)
            advance()
        case (.symbol("-"), .number(let digits, _)) where isSymbol(",", afterNext):
            (text, isNumber) = ("-" + digits, true)
            advance()
            advance()
        default:
            return try parseComputedCast(at: castToken)
        }
        try expect(",", "',' after the value to CAST")
        guard case .string(let type) = current.kind else {
            throw syntaxError("expected the type to CAST to as a quoted string, found \(describe(current))")
        }
        let typeToken = advance()
        try expect(")", "')' to close the CAST")
        guard let value = castValue(text, isNumber: isNumber, to: type) else {
            if !Self.castTypes.contains(type) {
                throw unsupported(
                    "CAST to '\(type)'", at: typeToken,
                    advice: "Constants can be cast to \(Self.castTypes.sorted().joined(separator: ", ")).")
            }
            throw syntaxError("the CAST value is not a valid \(type)", at: valueToken)
        }
        return .constant(value)
    }

    static let castTypes: Set<String> = [
        "NSDate", "NSNumber", "NSDecimalNumber", "NSString", "NSData", "NSUUID", "NSURL", "ObjectID",
    ]

    private func castValue(_ text: String, isNumber: Bool, to type: String) -> PredicateValue? {
        switch type {
        case "NSDate": return Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case "NSNumber":
            if let integer = Int64(text) { return .int(integer) }
            return Double(text).map { .double($0) }
        case "NSDecimalNumber":
            if text == "nan" { return .decimal(.nan) }
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case "NSString": return .string(text)
        case "NSData": return isNumber ? nil : Data(base64Encoded: text).map { .data($0) }
        case "NSUUID": return UUID(uuidString: text).map { .uuid($0) }
        case "NSURL": return isNumber ? nil : URL(string: text).map { .url($0) }
        case "ObjectID": return URL(string: text).flatMap(ObjectID.init(uriRepresentation:)).map { .object($0) }
        default: return nil
        }
    }

    // MARK: - Placeholders

    /// Binds the next argument to a placeholder.
    mutating func bindPlaceholder(_ conversion: String, at token: PredicateToken) throws -> Operand {
        guard argumentIndex < arguments.count else {
            throw PersistenceError.predicateArguments(
                "no argument for the placeholder %\(conversion) (\(Self.counted(arguments.count, "argument")) given)",
                format: format,
                position: token.position)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        do throws(PredicateArgumentProblem) {
            switch conversion {
            case "@": return .constant(try .bind(argument))
            case "K": return try keyPathArgument(argument, at: token)
            case "f", "lf", "g", "e": return .constant(try .bindFloatingPoint(argument))
            default: return .constant(try .bindInteger(argument))
            }
        } catch {
            throw PersistenceError.predicateArguments(
                "argument \(argumentIndex) for %\(conversion) cannot be used: \(error.reason)", format: format,
                position: token.position)
        }
    }

    /// The operand of a `%K` argument: a key path such as `basket.owner.name` or `fruits.@count`.
    private func keyPathArgument(_ argument: Any?, at token: PredicateToken) throws(PredicateArgumentProblem)
        -> Operand
    {
        let path: String
        switch argument {
        case let string as String: path = string
        case let text as Substring: path = String(text)
        default:
            throw PredicateArgumentProblem(reason: "%K takes a key path string such as \"basket.name\"")
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, components.allSatisfy({ !$0.isEmpty }) else {
            throw PredicateArgumentProblem(reason: "the key path is empty or has an empty component")
        }
        var operand: Operand = .evaluatedObject
        var keys: [String] = []
        var rest = components[...]
        if rest.first?.uppercased() == "SELF" { rest = rest.dropFirst() }
        while let component = rest.popFirst() {
            guard component.hasPrefix("@") else {
                keys.append(component)
                continue
            }
            guard let function = PredicateExpression.CollectionFunction(rawValue: String(component.dropFirst())) else {
                throw PredicateArgumentProblem(reason: "'\(component)' is not a supported collection operator")
            }
            let base: Operand = keys.isEmpty ? operand : .keyPath(operand, keys)
            operand = .collection(base, function, Array(rest))
            guard function != .count || rest.isEmpty else {
                throw PredicateArgumentProblem(reason: "@count takes no key path after it")
            }
            return operand
        }
        return keys.isEmpty ? operand : .keyPath(operand, keys)
    }
}
