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
enum ValueTest {
    case constant(Bool)
    /// `== nil` (true) or `!= nil` (false).
    case isNull(Bool)
    case relation(PredicateRelation, PreparedConstant)
    /// Inclusive at both ends.
    case between(PreparedConstant, PreparedConstant)
    case member(MemberSet)
    case string(PreparedString.Operation, PreparedString)
    case like(LikePattern)
    case regex(PredicateRegex)

    @inline(__always)
    func matches(_ value: StoreValue) -> Bool {
        switch self {
        case .constant(let result): return result
        case .isNull(let wantsNull): return value.isNull == wantsNull
        case .relation(let relation, let constant):
            switch relation {
            case .equal: return constant.equals(value)
            case .notEqual: return !constant.equals(value)
            default: return relation.holds(constant.order(value))
            }
        case .between(let low, let high):
            guard let lower = low.order(value), lower >= 0, let upper = high.order(value) else { return false }
            return upper <= 0
        case .member(let members): return members.contains(value)
        case .string(let operation, let constant):
            guard case .string(let text) = value else { return false }
            return constant.matches(text, operation)
        case .like(let pattern):
            guard case .string(let text) = value else { return false }
            return pattern.matches(text)
        case .regex(let regex):
            guard case .string(let text) = value else { return false }
            return regex.matches(text)
        }
    }
}
