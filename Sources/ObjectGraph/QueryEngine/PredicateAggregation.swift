import Foundation

/// The collection operators `@sum`, `@avg`, `@min` and `@max` (nulls are skipped).
enum PredicateAggregation {
    static func apply(_ function: PredicateExpression.CollectionFunction, to values: [StoreValue]) -> StoreValue {
        switch function {
        case .count: return .int(Int64(values.count))
        case .sum, .avg: return sumOrAverage(values, average: function == .avg)
        case .min, .max:
            // The same fold as a dictionary fetch's aggregates.
            var accumulator = AggregateAccumulator(function == .min ? .min : .max)
            for value in values { accumulator.add(value) }
            return accumulator.result
        }
    }

    private static func sumOrAverage(_ values: [StoreValue], average: Bool) -> StoreValue {
        var count = 0
        var integerSum: Int64 = 0
        var overflowed = false
        var doubleSum = 0.0
        var hasDouble = false
        var hasDecimal = false
        for value in values {
            guard let number = PredicateNumber(value) else { continue }
            count += 1
            switch number {
            case .int(let integer):
                let (sum, overflow) = integerSum.addingReportingOverflow(integer)
                integerSum = sum
                overflowed = overflowed || overflow
                doubleSum += Double(integer)
            case .double(let double):
                hasDouble = true
                doubleSum += double
            case .decimal:
                hasDecimal = true
            }
        }
        guard count > 0 else { return average ? .null : .int(0) }
        if hasDecimal {
            var sum = Decimal(0)
            for value in values {
                switch PredicateNumber(value) {
                case .int(let integer): sum += Decimal(integer)
                case .double(let double):
                    // Decimal cannot hold an infinity or NaN (its initializer traps): the sum is
                    // then that double.
                    guard double.isFinite else { return .double(double) }
                    sum += Decimal(double)
                case .decimal(let decimal): sum += decimal
                case nil: continue
                }
            }
            return .decimal(average ? sum / Decimal(count) : sum)
        }
        if average { return .double(doubleSum / Double(count)) }
        return hasDouble || overflowed ? .double(doubleSum) : .int(integerSum)
    }
}
