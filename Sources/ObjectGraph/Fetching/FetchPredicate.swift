/// A condition that fetched objects must meet, written in Core Data's predicate format language.
///
/// Placeholders bind arguments as values, never as text: `%@` takes any value (strings,
/// numbers, dates, UUIDs, managed objects, arrays, sets, `nil`), `%K` a key path, `%d` an
/// integer and `%f` a floating-point number. `$NAME` variables get their values later from
/// ``withSubstitutionVariables(_:)``. See `Docs/Predicates.md` for the whole language.
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.predicate = try FetchPredicate(format: "name BEGINSWITH[cd] %@ AND price <= %d", "ap", 200)
/// let cheapApples = try context.fetch(request)
/// ```
///
/// A predicate is checked against an entity when a fetch uses it: unknown keys and type
/// mismatches throw then, naming the entity and key.
///
/// Core Data: `NSPredicate`.
public struct FetchPredicate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The parsed expression tree. For a predicate that ``evaluatesInSwift``, a condition that
    /// every matching object meets, checked before the Swift part.
    public var expression: PredicateExpression

    /// The part of a `#Predicate` that did not convert, evaluated on objects after `expression`.
    var swiftTerm: SwiftPredicateTerm?

    /// Creates a predicate from an expression tree.
    public init(_ expression: PredicateExpression) {
        self.expression = expression
    }

    /// Parses a format string, binding `arguments` to its placeholders in order.
    ///
    /// - Throws: `PersistenceError.Code.invalidPredicate` for a syntax error or for arguments
    ///   that are missing, left over or of the wrong kind; `.unsupportedPredicate` for format
    ///   language constructs this library does not evaluate (arithmetic, `FUNCTION(…)`, array
    ///   indexing). The error's `position` is the character offset of the problem.
    ///
    /// Core Data: `NSPredicate(format:_:)`.
    public init(format: String, _ arguments: Any?...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a format string, binding the elements of `argumentArray` to its placeholders.
    ///
    /// For example:
    /// ```swift
    /// let predicate = try FetchPredicate(format: "name IN %@", argumentArray: [["apple", "pear"]])
    /// ```
    ///
    /// - Throws: as ``init(format:_:)``.
    ///
    /// Core Data: `NSPredicate(format:argumentArray:)`.
    public init(format: String, argumentArray: [Any?]) throws {
        self.expression = try PredicateParser.parse(format: format, arguments: argumentArray)
    }

    /// A predicate that every object meets (`true`) or none does (`false`).
    ///
    /// Core Data: `NSPredicate(value:)`.
    public init(value: Bool) {
        self.expression = .constant(value)
    }

    /// A copy with each `$NAME` variable replaced by the value given for it.
    ///
    /// Variables bound by a `SUBQUERY` are left alone; extra entries in `variables` are ignored.
    ///
    /// For example:
    /// ```swift
    /// let template = try FetchPredicate(format: "price BETWEEN {$LOW, $HIGH}")
    /// let predicate = try template.withSubstitutionVariables(["LOW": 100, "HIGH": 200])
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.invalidPredicate` if a variable has no entry in
    ///   `variables` or its value cannot be used in a predicate.
    ///
    /// Core Data: `NSPredicate.withSubstitutionVariables(_:)`.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws -> FetchPredicate {
        FetchPredicate(try expression.substituting(variables, boundBySubquery: []))
    }

    /// The names of the variables that ``withSubstitutionVariables(_:)`` must give values for.
    public var variableNames: Set<String> {
        var names: Set<String> = []
        expression.collectVariables(into: &names, boundBySubquery: [])
        return names
    }

    /// The predicate in format syntax. Parsing it gives an equal predicate, unless the
    /// predicate ``evaluatesInSwift``: then `#Predicate<Type>` stands for the Swift part.
    public var description: String {
        guard let swiftTerm else { return expression.description }
        return expression == .constant(true) ? swiftTerm.description : "\(expression) AND \(swiftTerm)"
    }

    /// Both predicates.
    ///
    /// Core Data: `NSCompoundPredicate(andPredicateWithSubpredicates:)`.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        let terms = [lhs.swiftTerm, rhs.swiftTerm].compactMap(\.self)
        guard !terms.isEmpty else {
            return FetchPredicate(.and(lhs.expression.operands(ofAnd: true) + rhs.expression.operands(ofAnd: true)))
        }
        // The expressions are conditions checked before the Swift parts; `TRUEPREDICATE` adds none.
        let operands = [lhs, rhs].flatMap {
            $0.expression == .constant(true) ? [] : $0.expression.operands(ofAnd: true)
        }
        var result = FetchPredicate(
            operands.isEmpty ? .constant(true) : (operands.count == 1 ? operands[0] : .and(operands)))
        result.swiftTerm = terms.count == 1 ? terms[0] : .and(terms)
        return result
    }

    /// Either predicate.
    ///
    /// Core Data: `NSCompoundPredicate(orPredicateWithSubpredicates:)`.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        guard lhs.swiftTerm != nil || rhs.swiftTerm != nil else {
            return FetchPredicate(.or(lhs.expression.operands(ofAnd: false) + rhs.expression.operands(ofAnd: false)))
        }
        var result = FetchPredicate(.constant(true))
        result.swiftTerm = .or([lhs.wholeTerm, rhs.wholeTerm])
        return result
    }

    /// The opposite predicate.
    ///
    /// Core Data: `NSCompoundPredicate(notPredicateWithSubpredicate:)`.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        guard predicate.swiftTerm != nil else { return FetchPredicate(.not(predicate.expression)) }
        var result = FetchPredicate(.constant(true))
        result.swiftTerm = .not(predicate.wholeTerm)
        return result
    }

    /// Encodes the expression tree.
    ///
    /// - Throws: `PersistenceError.Code.unsupportedPredicate` if the predicate
    ///   ``evaluatesInSwift``: a Swift closure cannot be encoded.
    public func encode(to encoder: any Encoder) throws {
        if let swiftTerm {
            throw PersistenceError.swiftPredicateNotEncodable(predicateType: swiftTerm.evaluators[0].typeName)
        }
        var container = encoder.singleValueContainer()
        try container.encode(expression)
    }

    /// Decodes a value that `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        self.expression = try decoder.singleValueContainer().decode(PredicateExpression.self)
    }
}

extension PredicateExpression {
    /// The operands of an `and` (or `or`), or the expression itself, for combining predicates
    /// into one flat chain.
    fileprivate func operands(ofAnd: Bool) -> [PredicateExpression] {
        switch (self, ofAnd) {
        case (.and(let operands), true), (.or(let operands), false): operands
        default: [self]
        }
    }
}
