import Foundation

/// Matches one stored value against constants: the fast path of predicate evaluation.
///
/// Matchers are immutable objects made by the factories below; each kind is a final subclass with
/// its constants in stored properties, so that matching a value copies no constant.
class ValueMatcher {
    // Every matcher is one of the final subclasses below (made only by the factories), each of
    // which overrides this: no value of a caller's reaches the trap.
    func matches(_ value: StoreValue) -> Bool { preconditionFailure("ValueMatcher is abstract") }

    /// What an attribute index can look up for this test, if it can (see ``IndexProbe``).
    var indexProbe: IndexProbe? { nil }

    /// The test as an inline step of a ``RowProgram`` on `slot` (falling back to the compiled
    /// conjunct at `node`), if it has one.
    func rowStep(slot: Int, node: Int) -> RowProgram.Step? { nil }

    /// The test as a ``StringColumnTest``, if a prefix column can rule rows out of it.
    var columnTest: StringColumnTest? { nil }

    /// The test as a ``StringSignatureCondition``, if a signature column can rule rows out of it.
    var signatureTest: StringSignatureCondition? { nil }

    static func constant(_ result: Bool) -> ValueMatcher { ConstantMatcher(result) }

    /// `== nil` (true) or `!= nil` (false).
    static func isNull(_ wantsNull: Bool) -> ValueMatcher { NullMatcher(wantsNull) }

    static func relation(_ relation: PredicateRelation, _ constant: PreparedConstant) -> ValueMatcher {
        switch constant {
        case .number(.int(let integer)): return IntegerRelationMatcher(relation, integer)
        case .string(let string) where relation == .equal || relation == .notEqual:
            return StringEqualityMatcher(string, negated: relation == .notEqual)
        default: return RelationMatcher(relation, constant)
        }
    }

    /// Inclusive at both ends.
    static func between(_ low: PreparedConstant, _ high: PreparedConstant) -> ValueMatcher {
        if case .number(.int(let lower)) = low, case .number(.int(let upper)) = high {
            return IntegerRangeMatcher(lower, upper)
        }
        return RangeMatcher(low, high)
    }

    static func member(_ members: MemberSet) -> ValueMatcher { MemberMatcher(members) }

    static func string(_ operation: PreparedString.Operation, _ constant: PreparedString) -> ValueMatcher {
        StringMatcher(operation, constant)
    }

    static func like(_ pattern: LikePattern) -> ValueMatcher { LikeMatcher(pattern) }

    static func regex(_ regex: PredicateRegex) -> ValueMatcher { RegexMatcher(regex) }
}

private final class ConstantMatcher: ValueMatcher {
    let result: Bool
    init(_ result: Bool) { self.result = result }
    override func matches(_ value: StoreValue) -> Bool { result }
}

private final class NullMatcher: ValueMatcher {
    let wantsNull: Bool
    init(_ wantsNull: Bool) { self.wantsNull = wantsNull }
    override func matches(_ value: StoreValue) -> Bool { value.isNull == wantsNull }
}

/// An integer (or Bool) constant: compared without converting integer values.
private final class IntegerRelationMatcher: ValueMatcher {
    let relation: PredicateRelation
    let constant: Int64
    let number: PreparedConstant

    init(_ relation: PredicateRelation, _ constant: Int64) {
        self.relation = relation
        self.constant = constant
        self.number = .number(.int(constant))
    }

    override var indexProbe: IndexProbe? { .relation(relation, number) }

    override func rowStep(slot: Int, node: Int) -> RowProgram.Step? {
        let (lower, upper): (Int64, Int64)
        switch relation {
        case .equal: (lower, upper) = (constant, constant)
        case .notEqual: return nil
        case .less: (lower, upper) = constant == .min ? (1, 0) : (.min, constant - 1)
        case .lessOrEqual: (lower, upper) = (.min, constant)
        case .greater: (lower, upper) = constant == .max ? (1, 0) : (constant + 1, .max)
        case .greaterOrEqual: (lower, upper) = (constant, .max)
        }
        return .integerRange(slot: slot, lower: lower, upper: upper, node: node)
    }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .int(let integer) = value else {
            switch relation {
            case .equal: return number.equals(value)
            case .notEqual: return !number.equals(value)
            default: return relation.holds(number.order(value))
            }
        }
        switch relation {
        case .equal: return integer == constant
        case .notEqual: return integer != constant
        case .less: return integer < constant
        case .lessOrEqual: return integer <= constant
        case .greater: return integer > constant
        case .greaterOrEqual: return integer >= constant
        }
    }
}

private final class IntegerRangeMatcher: ValueMatcher {
    let lower: Int64
    let upper: Int64
    let low: PreparedConstant
    let high: PreparedConstant

    init(_ lower: Int64, _ upper: Int64) {
        self.lower = lower
        self.upper = upper
        self.low = .number(.int(lower))
        self.high = .number(.int(upper))
    }

    override var indexProbe: IndexProbe? { .between(low, high) }

    override func rowStep(slot: Int, node: Int) -> RowProgram.Step? {
        .integerRange(slot: slot, lower: lower, upper: upper, node: node)
    }

    override func matches(_ value: StoreValue) -> Bool {
        if case .int(let integer) = value { return integer >= lower && integer <= upper }
        guard let below = low.order(value), below >= 0, let above = high.order(value) else { return false }
        return above <= 0
    }
}

private final class StringEqualityMatcher: ValueMatcher {
    let constant: PreparedString
    let negated: Bool

    init(_ constant: PreparedString, negated: Bool) {
        self.constant = constant
        self.negated = negated
    }

    override var indexProbe: IndexProbe? { negated ? nil : .relation(.equal, .string(constant)) }

    override var columnTest: StringColumnTest? {
        guard !negated, let bytes = constant.ascii else { return nil }
        return StringColumnTest(equalTo: bytes, caseInsensitive: constant.options.contains(.caseInsensitive))
    }

    override var signatureTest: StringSignatureCondition? {
        guard !negated else { return nil }
        let constant = constant
        return StringSignatureCondition(folded: constant.folded, options: constant.options) {
            constant.matches(folded: $0, .equal)
        }
    }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return negated }
        return constant.matches(text, .equal) != negated
    }
}

private final class RelationMatcher: ValueMatcher {
    let relation: PredicateRelation
    let constant: PreparedConstant

    init(_ relation: PredicateRelation, _ constant: PreparedConstant) {
        self.relation = relation
        self.constant = constant
    }

    override var indexProbe: IndexProbe? { .relation(relation, constant) }

    override func matches(_ value: StoreValue) -> Bool {
        switch relation {
        case .equal: return constant.equals(value)
        case .notEqual: return !constant.equals(value)
        default: return relation.holds(constant.order(value))
        }
    }
}

private final class RangeMatcher: ValueMatcher {
    let low: PreparedConstant
    let high: PreparedConstant

    init(_ low: PreparedConstant, _ high: PreparedConstant) {
        self.low = low
        self.high = high
    }

    override var indexProbe: IndexProbe? { .between(low, high) }

    override func matches(_ value: StoreValue) -> Bool {
        guard let below = low.order(value), below >= 0, let above = high.order(value) else { return false }
        return above <= 0
    }
}

private final class MemberMatcher: ValueMatcher {
    let members: MemberSet
    init(_ members: MemberSet) { self.members = members }
    override var indexProbe: IndexProbe? { .members(members) }
    override func matches(_ value: StoreValue) -> Bool { members.contains(value) }
}

private final class StringMatcher: ValueMatcher {
    let operation: PreparedString.Operation
    let constant: PreparedString

    init(_ operation: PreparedString.Operation, _ constant: PreparedString) {
        self.operation = operation
        self.constant = constant
    }

    override var indexProbe: IndexProbe? {
        operation == .prefix && constant.options.isEmpty ? .prefix(constant.folded) : nil
    }

    override func rowStep(slot: Int, node: Int) -> RowProgram.Step? {
        guard operation == .prefix, constant.options.isEmpty, let bytes = constant.ascii,
            let prefix = ASCIIPrefix(bytes)
        else { return nil }
        return .asciiPrefix(slot: slot, prefix, node: node)
    }

    override var columnTest: StringColumnTest? {
        guard operation == .prefix, let bytes = constant.ascii else { return nil }
        return StringColumnTest(prefix: bytes, caseInsensitive: constant.options.contains(.caseInsensitive))
    }

    override var signatureTest: StringSignatureCondition? {
        let (constant, operation) = (constant, operation)
        return StringSignatureCondition(folded: constant.folded, options: constant.options) {
            constant.matches(folded: $0, operation)
        }
    }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return constant.matches(text, operation)
    }
}

private final class LikeMatcher: ValueMatcher {
    let pattern: LikePattern
    init(_ pattern: LikePattern) { self.pattern = pattern }

    override var signatureTest: StringSignatureCondition? {
        let pattern = pattern
        return StringSignatureCondition(required: pattern.requiredSignature, options: pattern.options) {
            pattern.matches(folded: $0)
        }
    }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return pattern.matches(text)
    }
}

private final class RegexMatcher: ValueMatcher {
    let regex: PredicateRegex
    init(_ regex: PredicateRegex) { self.regex = regex }

    override var signatureTest: StringSignatureCondition? { regex.signatureTest }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return regex.matches(text)
    }
}
