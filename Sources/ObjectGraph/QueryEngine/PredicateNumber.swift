import Foundation

/// A number of any stored kind, compared exactly across kinds: integers with doubles without
/// rounding, decimals with integers exactly and with doubles as doubles.
enum PredicateNumber {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)

    /// The number a stored value holds (`Bool` counts as 0 or 1, as `NSNumber` does); `nil`
    /// for other kinds.
    @inline(__always)
    init?(_ value: StoreValue) {
        switch value {
        case .int(let number): self = .int(number)
        case .bool(let flag): self = .int(flag ? 1 : 0)
        case .double(let number): self = .double(number)
        case .float(let number): self = .double(Double(number))
        case .decimal(let number): self = .decimal(number)
        default: return nil
        }
    }

    init?(_ value: PredicateValue) {
        guard let stored = value.storeValue else { return nil }
        self.init(stored)
    }

    var storeValue: StoreValue {
        switch self {
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .decimal(let number): .decimal(number)
        }
    }

    var doubleValue: Double {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        case .decimal(let number): number.isNaN ? .nan : NSDecimalNumber(decimal: number).doubleValue
        }
    }

    /// -1, 0 or 1; `nil` when either side is NaN.
    static func compare(_ lhs: PredicateNumber, _ rhs: PredicateNumber) -> Int? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.int(let a), .double(let b)): return compare(a, b)
        case (.double(let a), .int(let b)): return compare(b, a).map { -$0 }
        case (.double(let a), .double(let b)): return compare(a, b)
        case (.decimal(let a), .decimal(let b)): return compare(a, b)
        case (.decimal(let a), .int(let b)): return compare(a, Decimal(b))
        case (.int(let a), .decimal(let b)): return compare(Decimal(a), b)
        case (.decimal, .double), (.double, .decimal): return compare(lhs.doubleValue, rhs.doubleValue)
        }
    }

    @inline(__always)
    static func compare<T: Comparable>(_ a: T, _ b: T) -> Int? {
        a < b ? -1 : (a == b ? 0 : (a > b ? 1 : nil))
    }

    static func compare(_ a: Decimal, _ b: Decimal) -> Int? {
        guard !a.isNaN, !b.isNaN else { return nil }
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    /// An integer against a double, exactly (no rounding of either).
    static func compare(_ integer: Int64, _ double: Double) -> Int? {
        guard !double.isNaN else { return nil }
        if double >= 0x1p63 { return -1 }
        if double < -0x1p63 { return 1 }
        let whole = double.rounded(.towardZero)
        let truncated = Int64(whole)
        if integer != truncated { return integer < truncated ? -1 : 1 }
        return double > whole ? -1 : (double < whole ? 1 : 0)
    }
}

/// The six comparison relations, applied to a three-way comparison result.
enum PredicateRelation {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    init?(_ op: PredicateExpression.Operator) {
        switch op {
        case .equalTo: self = .equal
        case .notEqualTo: self = .notEqual
        case .lessThan: self = .less
        case .lessThanOrEqualTo: self = .lessOrEqual
        case .greaterThan: self = .greater
        case .greaterThanOrEqualTo: self = .greaterOrEqual
        default: return nil
        }
    }

    /// The relation with its operands swapped (`a < b` is `b > a`).
    var mirrored: PredicateRelation {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }

    /// Whether the relation holds for a comparison result; an unordered result (`nil`, such
    /// as NaN) satisfies only `!=`.
    @inline(__always)
    func holds(_ order: Int?) -> Bool {
        guard let order else { return self == .notEqual }
        switch self {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }
}
