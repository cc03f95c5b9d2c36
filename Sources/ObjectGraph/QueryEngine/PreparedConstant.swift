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
