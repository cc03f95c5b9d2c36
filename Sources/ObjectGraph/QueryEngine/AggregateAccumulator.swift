import Foundation

/// One aggregate of a group, folded one value at a time as a scan passes the group's objects:
/// the results equal the collection operators' (``PredicateAggregation``) over the same values.
/// Nil values are skipped; the sum of none is 0, the average, minimum and maximum of none nil.
struct AggregateAccumulator {
    enum Function: Sendable {
        /// Counts objects (`countsObjects`) or the non-nil values.
        case count(countsObjects: Bool)
        case sum, average, min, max
    }

    let function: Function
    private var count: Int64 = 0
    private var integerSum: Int64 = 0
    private var overflowed = false
    /// How many times `integerSum` wrapped, signed: the exact integer sum is
    /// `integerSum + integerCarry × 2⁶⁴`.
    private var integerCarry: Int64 = 0
    private var doubleSum = 0.0
    /// The doubles alone (`doubleSum` also holds the integers).
    private var realSum = 0.0
    private var hasDouble = false
    private var decimalSum = Decimal(0)
    private var hasDecimal = false
    /// A non-finite double among the values: beside decimals, the sum is that double.
    private var nonFinite: Double?
    private var best: StoreValue?

    init(_ function: Function) { self.function = function }

    mutating func add(_ value: StoreValue) {
        switch function {
        case .count(let countsObjects):
            if countsObjects || !value.isNull { count += 1 }
        case .sum, .average:
            guard let number = PredicateNumber(value) else { return }
            count += 1
            switch number {
            case .int(let integer):
                let (sum, overflow) = integerSum.addingReportingOverflow(integer)
                integerSum = sum
                if overflow {
                    overflowed = true
                    integerCarry += integer < 0 ? -1 : 1
                }
                doubleSum += Double(integer)
            case .double(let double):
                hasDouble = true
                doubleSum += double
                realSum += double
                if !double.isFinite && nonFinite == nil { nonFinite = double }
            case .decimal(let decimal):
                hasDecimal = true
                decimalSum += decimal
            }
        case .min, .max:
            guard !value.isNull else { return }
            let wanted = if case .min = function { -1 } else { 1 }
            if let current = best, PredicateOrdering.order(value, current, options: []) != wanted { return }
            best = value
        }
    }

    /// 2⁶⁴, the span of one wrap of an `Int64` sum.
    private static let twoToThe64 = Decimal(UInt64.max) + 1

    /// The aggregate of the values added.
    var result: StoreValue {
        switch function {
        case .count: return .int(count)
        case .min, .max: return best ?? .null
        case .sum, .average:
            let average = if case .average = function { true } else { false }
            guard count > 0 else { return average ? .null : .int(0) }
            if hasDecimal {
                if let nonFinite { return .double(nonFinite) }
                // An attribute's values have one type: integers or doubles beside decimals only
                // come from key paths of several types, added here once.
                var sum = decimalSum
                sum += Decimal(integerSum)
                if integerCarry != 0 { sum += Decimal(integerCarry) * Self.twoToThe64 }
                if realSum != 0 { sum += Decimal(realSum) }
                return .decimal(average ? sum / Decimal(count) : sum)
            }
            if average { return .double(doubleSum / Double(count)) }
            return hasDouble || overflowed ? .double(doubleSum) : .int(integerSum)
        }
    }
}
