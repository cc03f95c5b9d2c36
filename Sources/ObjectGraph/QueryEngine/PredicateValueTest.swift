import Foundation

/// A constant prepared for comparing stored values with it.
enum PreparedConstant {
    case number(PredicateNumber)
    case string(PreparedString)
    /// A date, as its time interval since the reference date.
    case date(Double)
    /// Kinds compared for equality only: UUID, URL, data, objects.
    case exact(StoreValue)

    init(_ value: StoreValue, options: PredicateExpression.Options) {
        if let number = PredicateNumber(value) {
            self = .number(number)
            return
        }
        switch value {
        case .string(let text): self = .string(PreparedString(text, options: options))
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate)
        default: self = .exact(value)
        }
    }

    /// Whether `value` equals the constant (a null or a value of another kind never does).
    @inline(__always)
    func equals(_ value: StoreValue) -> Bool {
        switch (value, self) {
        case (.int(let a), .number(.int(let b))): return a == b
        case (.string(let text), .string(let constant)): return constant.matches(text, .equal)
        case (.date(let date), .date(let interval)): return date.timeIntervalSinceReferenceDate == interval
        case (_, .number(let constant)):
            guard let number = PredicateNumber(value) else { return false }
            return PredicateNumber.compare(number, constant) == 0
        case (_, .exact(let constant)): return value == constant
        default: return false
        }
    }

    /// -1, 0 or 1 for `value` against the constant; `nil` when they do not order (a null, NaN,
    /// or another kind).
    @inline(__always)
    func order(_ value: StoreValue) -> Int? {
        switch (value, self) {
        case (.int(let a), .number(.int(let b))): return a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let text), .string(let constant)):
            let subject = constant.fold(text)
            return subject < constant.folded ? -1 : (subject == constant.folded ? 0 : 1)
        case (.date(let date), .date(let interval)):
            return PredicateNumber.compare(date.timeIntervalSinceReferenceDate, interval)
        case (_, .number(let constant)):
            guard let number = PredicateNumber(value) else { return nil }
            return PredicateNumber.compare(number, constant)
        default: return nil
        }
    }
}

/// The constants of an `IN` list, sorted by kind for fast lookup.
struct MemberSet {
    var integers: Set<Int64> = []
    /// Numbers that are not integers (fractional doubles and decimals, NaN).
    var numbers: [PredicateNumber] = []
    /// Folded strings.
    var strings: Set<String> = []
    var dates: Set<Double> = []
    var exact: Set<StoreValue> = []
    var containsNull = false
    let options: PredicateExpression.Options

    init(_ values: [StoreValue], options: PredicateExpression.Options) {
        self.options = options
        for value in values {
            switch value {
            case .null: containsNull = true
            case .string(let text): strings.insert(PredicateFolding.fold(text, options))
            case .date(let date): dates.insert(date.timeIntervalSinceReferenceDate)
            default:
                if let number = PredicateNumber(value) {
                    if let integer = Self.integer(number) { integers.insert(integer) } else { numbers.append(number) }
                } else {
                    exact.insert(value)
                }
            }
        }
    }

    var isEmpty: Bool {
        integers.isEmpty && numbers.isEmpty && strings.isEmpty && dates.isEmpty && exact.isEmpty && !containsNull
    }

    /// The number as an `Int64` if it is exactly one.
    private static func integer(_ number: PredicateNumber) -> Int64? {
        switch number {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        case .decimal(let value):
            guard !value.isNaN, let integer = Int64(exactly: NSDecimalNumber(decimal: value).int64Value),
                Decimal(integer) == value
            else { return nil }
            return integer
        }
    }

    func contains(_ value: StoreValue) -> Bool {
        switch value {
        case .null: return containsNull
        case .int(let integer): return integers.contains(integer) || containsNumber(.int(integer))
        case .string(let text): return strings.contains(options.isEmpty ? text : PredicateFolding.fold(text, options))
        case .date(let date): return dates.contains(date.timeIntervalSinceReferenceDate)
        default:
            guard let number = PredicateNumber(value) else { return exact.contains(value) }
            if let integer = Self.integer(number), integers.contains(integer) { return true }
            return containsNumber(number)
        }
    }

    private func containsNumber(_ number: PredicateNumber) -> Bool {
        numbers.contains { PredicateNumber.compare(number, $0) == 0 }
    }
}

/// A test of one stored value against constants: the fast path of predicate evaluation.
///
/// Tests are immutable objects made by the factories below; each kind is a final subclass with
/// its constants in stored properties, so that matching a value copies no constant.
class ValueTest {
    func matches(_ value: StoreValue) -> Bool { preconditionFailure("ValueTest is abstract") }

    /// What an attribute index can look up for this test, if it can (see ``IndexProbe``).
    var indexProbe: IndexProbe? { nil }

    /// The test as an inline step of a ``RowProgram`` on `slot` (falling back to the compiled
    /// conjunct at `node`), if it has one.
    func rowStep(slot: Int, node: Int) -> RowProgram.Step? { nil }

    /// The test as a ``StringColumnTest``, if a prefix column can rule rows out of it.
    var columnTest: StringColumnTest? { nil }

    static func constant(_ result: Bool) -> ValueTest { ConstantTest(result) }

    /// `== nil` (true) or `!= nil` (false).
    static func isNull(_ wantsNull: Bool) -> ValueTest { NullTest(wantsNull) }

    static func relation(_ relation: PredicateRelation, _ constant: PreparedConstant) -> ValueTest {
        switch constant {
        case .number(.int(let integer)): return IntegerRelationTest(relation, integer)
        case .string(let string) where relation == .equal || relation == .notEqual:
            return StringEqualityTest(string, negated: relation == .notEqual)
        default: return RelationTest(relation, constant)
        }
    }

    /// Inclusive at both ends.
    static func between(_ low: PreparedConstant, _ high: PreparedConstant) -> ValueTest {
        if case .number(.int(let lower)) = low, case .number(.int(let upper)) = high {
            return IntegerRangeTest(lower, upper)
        }
        return RangeTest(low, high)
    }

    static func member(_ members: MemberSet) -> ValueTest { MemberTest(members) }

    static func string(_ operation: PreparedString.Operation, _ constant: PreparedString) -> ValueTest {
        StringTest(operation, constant)
    }

    static func like(_ pattern: LikePattern) -> ValueTest { LikeTest(pattern) }

    static func regex(_ regex: PredicateRegex) -> ValueTest { RegexTest(regex) }
}

private final class ConstantTest: ValueTest {
    let result: Bool
    init(_ result: Bool) { self.result = result }
    override func matches(_ value: StoreValue) -> Bool { result }
}

private final class NullTest: ValueTest {
    let wantsNull: Bool
    init(_ wantsNull: Bool) { self.wantsNull = wantsNull }
    override func matches(_ value: StoreValue) -> Bool { value.isNull == wantsNull }
}

/// An integer (or Bool) constant: compared without converting integer values.
private final class IntegerRelationTest: ValueTest {
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

private final class IntegerRangeTest: ValueTest {
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

private final class StringEqualityTest: ValueTest {
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

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return negated }
        return constant.matches(text, .equal) != negated
    }
}

private final class RelationTest: ValueTest {
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

private final class RangeTest: ValueTest {
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

private final class MemberTest: ValueTest {
    let members: MemberSet
    init(_ members: MemberSet) { self.members = members }
    override var indexProbe: IndexProbe? { .members(members) }
    override func matches(_ value: StoreValue) -> Bool { members.contains(value) }
}

private final class StringTest: ValueTest {
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

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return constant.matches(text, operation)
    }
}

private final class LikeTest: ValueTest {
    let pattern: LikePattern
    init(_ pattern: LikePattern) { self.pattern = pattern }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return pattern.matches(text)
    }
}

private final class RegexTest: ValueTest {
    let regex: PredicateRegex
    init(_ regex: PredicateRegex) { self.regex = regex }

    override func matches(_ value: StoreValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return regex.matches(text)
    }
}
