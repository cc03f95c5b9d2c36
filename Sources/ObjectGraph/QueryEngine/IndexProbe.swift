import Foundation

/// The values a compiled comparison can match, as an index can look them up: inclusive ranges
/// or a string prefix. A probe describes a superset of the matches among non-nil values (the
/// fetch checks every candidate against the whole predicate), and a test has one only if it
/// never matches nil.
enum IndexProbe {
    /// A bound of a range; `nil` in a range means unbounded.
    enum Bound {
        case number(PredicateNumber)
        case string(String)
        /// A UUID: only ever both bounds of a point (UUIDs compare for equality only).
        case uuid(UUIDIndexKey)

        var isUUID: Bool {
            if case .uuid = self { return true }
            return false
        }
    }

    /// Values in any of the inclusive ranges.
    case ranges([(lower: Bound?, upper: Bound?)])
    /// Strings that begin with the prefix (case- and diacritic-sensitive).
    case prefix(String)

    /// A bound for a prepared constant compared without options; `nil` if it has none.
    static func bound(_ constant: PreparedConstant) -> Bound? {
        switch constant {
        case .number(let number): return number.isNaN ? nil : .number(number)
        case .string(let string): return string.options.isEmpty ? .string(string.folded) : nil
        case .date(let interval): return interval.isNaN ? nil : .number(.double(interval))
        case .exact(.uuid(let uuid)): return .uuid(UUIDIndexKey(uuid))
        case .exact: return nil
        }
    }

    /// The probe for `constant` under `relation`; `nil` for `!=` and constants without bounds.
    static func relation(_ relation: PredicateRelation, _ constant: PreparedConstant) -> IndexProbe? {
        guard let bound = bound(constant) else { return nil }
        if case .uuid = bound, relation != .equal { return nil }
        switch relation {
        case .equal: return .ranges([(bound, bound)])
        case .notEqual: return nil
        case .less, .lessOrEqual: return .ranges([(nil, bound)])
        case .greater, .greaterOrEqual: return .ranges([(bound, nil)])
        }
    }

    static func between(_ low: PreparedConstant, _ high: PreparedConstant) -> IndexProbe? {
        guard let lower = bound(low), let upper = bound(high) else { return nil }
        if case .uuid = lower { return nil }
        if case .uuid = upper { return nil }
        return .ranges([(lower, upper)])
    }

    static func members(_ members: MemberSet) -> IndexProbe? {
        guard !members.containsNull, members.options.isEmpty || members.strings.isEmpty else { return nil }
        var points: [Bound] = members.integers.sorted().map { .number(.int($0)) }
        for number in members.numbers {
            guard !number.isNaN else { return nil }
            points.append(.number(number))
        }
        points += members.dates.sorted().map { .number(.double($0)) }
        points += members.strings.sorted().map { .string($0) }
        for case .uuid(let uuid) in members.exact { points.append(.uuid(UUIDIndexKey(uuid))) }
        return .ranges(points.map { ($0, $0) })
    }
}

extension PredicateNumber {
    var isNaN: Bool {
        switch self {
        case .int: false
        case .double(let value): value.isNaN
        case .decimal(let value): value.isNaN
        }
    }

    /// The largest `Int64` not above the number (clamped), for a lower bound that loses nothing.
    var integerFloor: Int64 {
        switch self {
        case .int(let value): return value
        case .double, .decimal:
            let value = doubleApproximation.rounded(.down) - decimalMargin
            if value <= -9.2e18 { return .min }
            if value >= 9.2e18 { return .max }
            return Int64(value)
        }
    }

    /// The smallest `Int64` not below the number (clamped), for an upper bound that loses nothing.
    var integerCeiling: Int64 {
        switch self {
        case .int(let value): return value
        case .double, .decimal:
            let value = doubleApproximation.rounded(.up) + decimalMargin
            if value <= -9.2e18 { return .min }
            if value >= 9.2e18 { return .max }
            return Int64(value)
        }
    }

    /// How far a decimal's `Double` conversion may be from its value, generously.
    private var decimalMargin: Double {
        guard case .decimal = self else { return 0 }
        return Swift.max(2, abs(doubleApproximation) * 1e-12)
    }

    var doubleApproximation: Double {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        }
    }

    /// A `Decimal` not above the number (a double's conversion may round either way).
    var decimalFloor: Decimal? {
        switch self {
        case .int(let value): return Decimal(value)
        case .decimal(let value): return value.isNaN ? nil : value
        case .double(let value):
            guard value.isFinite else { return value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude }
            let decimal = Decimal(value)
            return decimal - Self.decimalMargin(decimal)
        }
    }

    /// A `Decimal` not below the number.
    var decimalCeiling: Decimal? {
        switch self {
        case .int(let value): return Decimal(value)
        case .decimal(let value): return value.isNaN ? nil : value
        case .double(let value):
            guard value.isFinite else { return value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude }
            let decimal = Decimal(value)
            return decimal + Self.decimalMargin(decimal)
        }
    }

    /// How far a `Double`'s `Decimal` conversion (and a decimal's `Double` comparison) may be
    /// off, generously.
    private static func decimalMargin(_ decimal: Decimal) -> Decimal {
        Swift.max(
            abs(decimal) * Decimal(sign: .plus, exponent: -12, significand: 1),
            Decimal(sign: .plus, exponent: -30, significand: 1))
    }

    /// A `Double` not above the number (a decimal's conversion may round either way).
    var realFloor: Double {
        switch self {
        case .int, .double: doubleApproximation
        case .decimal: doubleApproximation.nextDown.nextDown
        }
    }

    /// A `Double` not below the number.
    var realCeiling: Double {
        switch self {
        case .int, .double: doubleApproximation
        case .decimal: doubleApproximation.nextUp.nextUp
        }
    }
}

extension AttributeIndex {
    /// The keys of the rows whose value may satisfy `probe` (a superset of the matches), in
    /// index order for a single range, else in key order; `nil` if the probe does not fit this
    /// index (a string probe on a number index) or more than `limit` rows would be candidates.
    func candidates(for probe: IndexProbe, limit: Int) -> [Int64]? {
        if case .compound = self { return nil }  // See `CompoundProbe`.
        var keys: [Int64] = []
        var rangeCount = 0
        switch probe {
        case .prefix(let prefix):
            guard case .string(_, let index) = self else { return nil }
            let block = PrefixBlock(prefix)
            // The block is one run of the index from the prefix on: its end is found by binary
            // search, not by testing every string in it.
            guard index.appendKeys(from: prefix, until: { !block.contains($0) }, into: &keys, limit: limit) else {
                return nil
            }
            return keys
        case .ranges(let ranges):
            rangeCount = ranges.count
            for range in ranges {
                guard collect(range, into: &keys, limit: limit) else { return nil }
            }
        }
        if rangeCount > 1 {
            keys.sort()
            var unique: [Int64] = []
            unique.reserveCapacity(keys.count)
            for key in keys where unique.last != key { unique.append(key) }
            return unique
        }
        return keys
    }

    /// Appends the keys in the inclusive range; false if the range does not fit the index or
    /// `keys` would grow past `limit`.
    private func collect(
        _ range: (lower: IndexProbe.Bound?, upper: IndexProbe.Bound?), into keys: inout [Int64], limit: Int
    ) -> Bool {
        /// The bound as the index's value type; `.some(nil)` for no bound, `nil` if it does not fit.
        func converted<Value>(_ bound: IndexProbe.Bound?, _ convert: (IndexProbe.Bound) -> Value?) -> Value?? {
            guard let bound else { return .some(nil) }
            return convert(bound).map { .some($0) }
        }
        func number(_ bound: IndexProbe.Bound) -> PredicateNumber? {
            if case .number(let number) = bound { return number }
            return nil
        }
        // A UUID equals no value of another type, and a number or string no UUID: no keys.
        if let lower = range.lower, lower.isUUID != isUUIDIndex { return true }
        switch self {
        case .integer(_, let index):
            guard let lower = converted(range.lower, { number($0)?.integerFloor }),
                let upper = converted(range.upper, { number($0)?.integerCeiling })
            else { return false }
            return Self.collect(from: index, lower: lower, upper: upper, into: &keys, limit: limit)
        case .real(_, let index):
            guard let lower = converted(range.lower, { number($0)?.realFloor }),
                let upper = converted(range.upper, { number($0)?.realCeiling })
            else { return false }
            return Self.collect(from: index, lower: lower, upper: upper, into: &keys, limit: limit)
        case .string(_, let index):
            func text(_ bound: IndexProbe.Bound) -> String? {
                if case .string(let text) = bound { return text }
                return nil
            }
            guard let lower = converted(range.lower, text), let upper = converted(range.upper, text) else {
                return false
            }
            return Self.collect(from: index, lower: lower, upper: upper, into: &keys, limit: limit)
        case .decimal(_, let index):
            guard let lower = converted(range.lower, { number($0)?.decimalFloor }),
                let upper = converted(range.upper, { number($0)?.decimalCeiling })
            else { return false }
            return Self.collect(from: index, lower: lower, upper: upper, into: &keys, limit: limit)
        case .uuid(_, let index):
            func uuid(_ bound: IndexProbe.Bound) -> UUIDIndexKey? {
                if case .uuid(let key) = bound { return key }
                return nil
            }
            guard let lower = converted(range.lower, uuid), let upper = converted(range.upper, uuid) else {
                return false
            }
            return Self.collect(from: index, lower: lower, upper: upper, into: &keys, limit: limit)
        case .compound:
            return false
        }
    }

    private var isUUIDIndex: Bool {
        if case .uuid = self { return true }
        return false
    }

    /// Appends the keys of `index` from `lower` to `upper` inclusive; false if `keys` would grow
    /// past `limit`.
    private static func collect<Value: Comparable & Sendable>(
        from index: SortedKeyIndex<Value>, lower: Value?, upper: Value?, into keys: inout [Int64], limit: Int
    ) -> Bool {
        index.appendKeys(from: lower, through: upper, into: &keys, limit: limit)
    }
}

/// The strings that sort as beginning with a prefix: those whose canonical composition (NFC)
/// begins with the prefix's, which Swift's `String` ordering keeps together, from the prefix on.
private struct PrefixBlock {
    let prefix: [UInt8]
    let isASCII: Bool
    let composed: [Unicode.Scalar]

    init(_ prefix: String) {
        self.prefix = Array(prefix.utf8)
        self.isASCII = prefix.utf8.allSatisfy { $0 < 0x80 }
        self.composed = Array(prefix.precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    func contains(_ value: String) -> Bool {
        if isASCII {
            var matched = 0
            var ascii = true
            for byte in value.utf8 {
                if byte >= 0x80 {
                    ascii = false
                    break
                }
                if matched < prefix.count {
                    guard byte == prefix[matched] else { return false }
                    matched += 1
                } else {
                    return true
                }
            }
            if ascii { return matched == prefix.count }
        }
        return value.precomposedStringWithCanonicalMapping.unicodeScalars.starts(with: composed)
    }
}
