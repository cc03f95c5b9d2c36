import Foundation

/// Converts the common shapes of a Foundation `#Predicate` into a ``PredicateExpression``:
/// comparisons of key paths with values, `&&`, `||`, `!`, `contains`, `starts(with:)`, ranges and
/// `nil` checks. Each supported `PredicateExpressions` type conforms to
/// ``SwiftPredicateConvertible``; any other node makes its subtree unconvertible.
struct SwiftPredicateConversion {
    /// The key path from the evaluated object that each variable stands for: the predicate's
    /// input is `[]`, the variable of `basket.flatMap { $0.name }` is `["basket"]`.
    var variables: [PredicateExpressions.VariableID: [String]]
    /// The property names found for key paths so far (`nil`: not a property), as probing a key
    /// path costs a throwaway object.
    var propertyNames: [AnyKeyPath: String?] = [:]

    init(input: PredicateExpressions.VariableID) {
        variables = [input: []]
    }

    /// The predicate converted whole (`isWhole`), or else the converted operands of its
    /// top-level `&&` chain, leaving out those that do not convert: they are a necessary
    /// condition of the whole predicate.
    static func convert<Object>(_ predicate: Predicate<Object>) -> (parts: [PredicateExpression], isWhole: Bool) {
        var conversion = SwiftPredicateConversion(input: predicate.variable.key)
        if let whole = conversion.predicate(predicate.expression) { return ([whole], true) }
        return (conversion.conjuncts(predicate.expression), false)
    }

    /// `expression` as a predicate: a Boolean key path `k` becomes `k == YES`.
    mutating func predicate(_ expression: Any) -> PredicateExpression? {
        guard let convertible = expression as? any SwiftPredicateConvertible else { return nil }
        switch convertible.converted(&self) {
        case .predicate(let result): return result
        case .operand(let operand, let isBoolean) where isBoolean:
            if case .constant(.bool(let value)) = operand { return .constant(value) }
            return .comparison(.init(operand, .equalTo, .constant(.bool(true))))
        default: return nil
        }
    }

    /// `expression` as an operand (a key path or a constant).
    mutating func operand(_ expression: Any) -> PredicateExpression.Operand? {
        guard let convertible = expression as? any SwiftPredicateConvertible,
            case .operand(let operand, _) = convertible.converted(&self)
        else { return nil }
        return operand
    }

    mutating func conjuncts(_ expression: Any) -> [PredicateExpression] {
        if let conjunction = expression as? any SwiftPredicateConjunction {
            return conjunction.operands.flatMap { conjuncts($0) }
        }
        return predicate(expression).map { [$0] } ?? []
    }

    /// `lhs op rhs` when both sides are operands and at least one is a key path.
    mutating func comparison(_ lhs: Any, _ op: PredicateExpression.Operator, _ rhs: Any) -> SwiftConvertedNode? {
        guard let left = operand(lhs), let right = operand(rhs) else { return nil }
        if case .constant = left, case .constant = right { return nil }
        // A captured array compares with a codable attribute in Swift; in the format language
        // it would be a list.
        if case .constant(.array) = left { return nil }
        if case .constant(.array) = right { return nil }
        return .predicate(.comparison(.init(left, op, right)))
    }
}

/// What a `PredicateExpressions` node converts to.
enum SwiftConvertedNode {
    /// A condition.
    case predicate(PredicateExpression)
    /// A value: a key path from the evaluated object or a constant, and whether it is a `Bool`.
    case operand(PredicateExpression.Operand, isBoolean: Bool)
}

/// A `PredicateExpressions` node that has an equivalent in the expression tree.
protocol SwiftPredicateConvertible {
    /// The equivalent, or `nil` when this instance (for example its value's type) has none.
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode?
}

/// A conjunction, for splitting a partly convertible predicate into its operands.
protocol SwiftPredicateConjunction {
    var operands: [Any] { get }
}

extension PredicateExpressions.Conjunction: SwiftPredicateConjunction {
    var operands: [Any] { [lhs, rhs] }
}

// MARK: - Operands

extension PredicateExpressions.Variable: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard let path = conversion.variables[key] else { return nil }
        return .operand(path.isEmpty ? .evaluatedObject : .keyPath(.evaluatedObject, path), isBoolean: false)
    }
}

extension PredicateExpressions.KeyPath: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        let base: [String]
        switch conversion.operand(root) {
        case .evaluatedObject?: base = []
        case .keyPath(.evaluatedObject, let path)?: base = path
        default: return nil
        }
        let name: String?
        if let known = conversion.propertyNames[keyPath] {
            name = known
        } else {
            name = (Root.Output.self as? ManagedObject.Type)?.propertyName(readingAny: keyPath, as: Output.self)
            conversion.propertyNames[keyPath] = .some(name)
        }
        guard let name else { return nil }
        return .operand(.keyPath(.evaluatedObject, base + [name]), isBoolean: Output.self == Bool.self)
    }
}

extension PredicateExpressions.Value: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard let constant = PredicateValue(swiftValue: value) else { return nil }
        return .operand(.constant(constant), isBoolean: Output.self == Bool.self)
    }
}

extension PredicateExpressions.NilLiteral: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        .operand(.constant(.null), isBoolean: false)
    }
}

/// `base?.property`: the key path through a to-one relationship (nil when it is nil).
extension PredicateExpressions.OptionalFlatMap: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard case .keyPath(.evaluatedObject, let path)? = conversion.operand(wrapped) else { return nil }
        conversion.variables[variable.key] = path
        guard
            case .operand(.keyPath(.evaluatedObject, let inner), let isBoolean)? =
                (transform as? any SwiftPredicateConvertible)?.converted(&conversion)
        else { return nil }
        return .operand(.keyPath(.evaluatedObject, inner), isBoolean: isBoolean)
    }
}

// MARK: - Conditions

extension PredicateExpressions.Conjunction: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard let left = conversion.predicate(lhs), let right = conversion.predicate(rhs) else { return nil }
        return .predicate(.and(left.operands(of: .and) + right.operands(of: .and)))
    }
}

extension PredicateExpressions.Disjunction: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard let left = conversion.predicate(lhs), let right = conversion.predicate(rhs) else { return nil }
        return .predicate(.or(left.operands(of: .or) + right.operands(of: .or)))
    }
}

extension PredicateExpressions.Negation: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        conversion.predicate(wrapped).map { .predicate(.not($0)) }
    }
}

extension PredicateExpressions.Equal: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        conversion.comparison(lhs, .equalTo, rhs)
    }
}

extension PredicateExpressions.NotEqual: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        conversion.comparison(lhs, .notEqualTo, rhs)
    }
}

extension PredicateExpressions.Comparison: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        // Strings order alike in both (Swift's `<`, with no folding unless `[c]`/`[d]`).
        let converted: PredicateExpression.Operator =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqualTo
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqualTo
            }
        return conversion.comparison(lhs, converted, rhs)
    }
}

/// `[values].contains($0.key)`: `key IN {values}`; `$0.tags.contains("x")` (a codable array
/// attribute): `tags CONTAINS "x"`.
extension PredicateExpressions.SequenceContains: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        if case .keyPath? = conversion.operand(sequence), case .constant(let value)? = conversion.operand(element),
            value.elements == nil, let collection = conversion.operand(sequence)
        {
            return .predicate(.comparison(.init(collection, .contains, .constant(value))))
        }
        guard case .constant(let values)? = conversion.operand(sequence), values.elements != nil,
            let element = conversion.operand(element), case .keyPath = element
        else { return nil }
        return .predicate(.comparison(.init(element, .in, .constant(values))))
    }
}

/// `$0.name.contains("x")`: `name CONTAINS "x"`.
extension PredicateExpressions.CollectionContainsCollection: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard Base.Output.self == String.self, Other.Output.self == String.self,
            let base = conversion.operand(base), case .keyPath = base,
            case .constant(.string(let text))? = conversion.operand(other)
        else { return nil }
        return .predicate(.comparison(.init(base, .contains, .constant(.string(text)))))
    }
}

/// `$0.name.starts(with: "x")`: `name BEGINSWITH "x"`.
extension PredicateExpressions.SequenceStartsWith: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard Base.Output.self == String.self, Prefix.Output.self == String.self,
            let base = conversion.operand(base), case .keyPath = base,
            case .constant(.string(let text))? = conversion.operand(prefix)
        else { return nil }
        return .predicate(.comparison(.init(base, .beginsWith, .constant(.string(text)))))
    }
}

/// `(lo...hi).contains($0.key)`: `key BETWEEN {lo, hi}`; `(lo..<hi)`: `key >= lo AND key < hi`.
extension PredicateExpressions.RangeExpressionContains: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard let element = conversion.operand(element), case .keyPath = element,
            let range = range as? any SwiftPredicateRangeOperands,
            case .constant(let lower)? = conversion.operand(range.lowerOperand),
            case .constant(let upper)? = conversion.operand(range.upperOperand),
            lower.elements == nil, upper.elements == nil, lower != .null, upper != .null
        else { return nil }
        if range.isClosed {
            return .predicate(.comparison(.init(element, .between, .constant(.array([lower, upper])))))
        }
        return .predicate(
            .and([
                .comparison(.init(element, .greaterThanOrEqualTo, .constant(lower))),
                .comparison(.init(element, .lessThan, .constant(upper))),
            ]))
    }
}

/// A range built in the predicate (`lo...hi`, `lo..<hi`), with its bound expressions.
protocol SwiftPredicateRangeOperands {
    var lowerOperand: Any { get }
    var upperOperand: Any { get }
    var isClosed: Bool { get }
}

extension PredicateExpressions.ClosedRange: SwiftPredicateRangeOperands {
    var lowerOperand: Any { lower }
    var upperOperand: Any { upper }
    var isClosed: Bool { true }
}

extension PredicateExpressions.Range: SwiftPredicateRangeOperands {
    var lowerOperand: Any { lower }
    var upperOperand: Any { upper }
    var isClosed: Bool { false }
}

// MARK: - Helpers

extension PredicateExpression {
    /// The operands of an `and` (or `or`), or the expression itself.
    fileprivate func operands(of kind: SwiftJunction) -> [PredicateExpression] {
        switch (self, kind) {
        case (.and(let operands), .and), (.or(let operands), .or): operands
        default: [self]
        }
    }
}

private enum SwiftJunction { case and, or }

/// Unwraps an optional held in an `Any`.
private protocol SwiftOptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: SwiftOptionalValue {
    fileprivate var wrappedValue: Any? { self.map { $0 as Any } }
}

extension PredicateValue {
    /// A captured Swift value as a predicate constant, or `nil` for types the format language
    /// has no constant for (enums, structs, managed objects, strings of characters…).
    init?(swiftValue: Any) {
        if let optional = swiftValue as? any SwiftOptionalValue {
            guard let wrapped = optional.wrappedValue else {
                self = .null
                return
            }
            self.init(swiftValue: wrapped)
            return
        }
        switch swiftValue {
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(Int64(value))
        case let value as Int64: self = .int(value)
        case let value as Int32: self = .int(Int64(value))
        case let value as Int16: self = .int(Int64(value))
        case let value as Int8: self = .int(Int64(value))
        case let value as UInt8: self = .int(Int64(value))
        case let value as UInt16: self = .int(Int64(value))
        case let value as UInt32: self = .int(Int64(value))
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as Decimal: self = .decimal(value)
        case let value as Date: self = .date(value)
        case let value as Data: self = .data(value)
        case let value as UUID: self = .uuid(value)
        case let value as URL: self = .url(value)
        case let values as any SwiftPredicateCollection:
            guard let elements = values.predicateElements else { return nil }
            self = .array(elements)
        default: return nil
        }
    }
}

/// An array or set of scalar constants, for `IN`.
private protocol SwiftPredicateCollection {
    var predicateElements: [PredicateValue]? { get }
}

extension Array: SwiftPredicateCollection {
    fileprivate var predicateElements: [PredicateValue]? { scalars(self) }
}

extension Set: SwiftPredicateCollection {
    /// In the order of their format syntax, so that equal sets print alike.
    fileprivate var predicateElements: [PredicateValue]? { scalars(self)?.sorted { $0.description < $1.description } }
}

/// The elements as scalar constants (no `nil`, no nested collections), or `nil`.
private func scalars(_ values: some Sequence) -> [PredicateValue]? {
    var result: [PredicateValue] = []
    for value in values {
        guard let converted = PredicateValue(swiftValue: value), converted.elements == nil, converted != .null
        else { return nil }
        result.append(converted)
    }
    return result
}

extension ManagedObject {
    /// The name of the property a key path of `Self` reads, or `nil` if it is not one
    /// `@Attribute` or `@Relationship` property.
    static func propertyName<Value>(readingAny keyPath: AnyKeyPath, as valueType: Value.Type) -> String? {
        guard let typed = keyPath as? KeyPath<Self, Value>,
            case .success(let name) = propertyName(readBy: typed, checkingStoredValue: true)
        else { return nil }
        return name
    }
}
