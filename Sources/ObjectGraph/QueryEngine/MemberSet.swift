import Foundation

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
