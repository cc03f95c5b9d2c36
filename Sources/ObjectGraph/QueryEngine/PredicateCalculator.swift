import Foundation

/// The functions of `NSExpression` on stored values. Nothing traps: integer arithmetic that
/// overflows is done in `Double` (as `NSNumber` arithmetic is), division by zero gives an
/// infinity or NaN as in IEEE arithmetic, and arguments of the wrong kind or `nil` give `nil`.
enum PredicateCalculator {
    static func apply(_ function: PredicateFunction, _ arguments: [PredicateResult]) -> PredicateResult {
        if function.isAggregate { return aggregate(function, arguments[0].elements.filter { !$0.isNull }) }
        let values = arguments.map { result -> StoreValue in
            if case .one(let value) = result { return value }
            return .null
        }
        return .one(scalar(function, values))
    }

    private static func scalar(_ function: PredicateFunction, _ values: [StoreValue]) -> StoreValue {
        switch function {
        case .now: return .date(Date())
        case .random: return .double(Double.random(in: 0..<1))
        case .randomn:
            guard let bound = integer(values[0]), bound > 0 else { return .null }
            return .int(Int64.random(in: 0..<bound))
        case .lowercase, .uppercase:
            guard case .string(let text) = values[0] else { return .null }
            return .string(function == .lowercase ? text.lowercased() : text.uppercased())
        case .noindex: return values[0]
        case .length: return length(values[0])
        case .add, .subtract:
            if let moved = dateArithmetic(function, values[0], values[1]) { return moved }
            return arithmetic(function, values[0], values[1])
        case .multiply, .divide, .modulus:
            return arithmetic(function, values[0], values[1])
        case .power:
            guard let base = PredicateNumber(values[0]), let exponent = PredicateNumber(values[1]) else { return .null }
            return .double(Foundation.pow(base.doubleValue, exponent.doubleValue))
        case .abs, .ceiling, .floor, .trunc:
            return rounding(function, values[0])
        case .sqrt, .log, .ln, .exp:
            guard let number = PredicateNumber(values[0]) else { return .null }
            let x = number.doubleValue
            switch function {
            case .sqrt: return .double(x.squareRoot())
            case .log: return .double(Foundation.log10(x))
            case .ln: return .double(Foundation.log(x))
            default: return .double(Foundation.exp(x))
            }
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            guard let a = integer(values[0]), let b = integer(values[1]) else { return .null }
            switch function {
            case .bitwiseAnd: return .int(a & b)
            case .bitwiseOr: return .int(a | b)
            case .bitwiseXor: return .int(a ^ b)
            // Smart shifts: a count past 63 gives 0 (or -1), a negative count shifts the other way.
            case .leftShift: return .int(a << b)
            default: return .int(a >> b)
            }
        case .onesComplement:
            return integer(values[0]).map { .int(~$0) } ?? .null
        case .cast:
            guard case .string(let type) = values[1] else { return .null }
            return cast(values[0], to: type)
        default:
            return .null
        }
    }

    /// `+ - * / modulus:by:`: integers exactly (in `Double` when the result overflows), decimals
    /// as decimals, anything else in `Double`. Division gives a fraction, as Apple's does.
    private static func arithmetic(_ function: PredicateFunction, _ lhs: StoreValue, _ rhs: StoreValue) -> StoreValue {
        guard let a = PredicateNumber(lhs), let b = PredicateNumber(rhs) else { return .null }
        if case .int(let x) = a, case .int(let y) = b, function != .divide {
            let (result, overflow): (Int64, Bool)
            switch function {
            case .add: (result, overflow) = x.addingReportingOverflow(y)
            case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
            case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y)
            default:
                guard y != 0 else { return .double(.nan) }
                // Int64.min % -1 overflows in hardware; its remainder is 0.
                (result, overflow) = x.remainderReportingOverflow(dividingBy: y)
                return .int(overflow ? 0 : result)
            }
            if !overflow { return .int(result) }
        }
        let x = a.doubleValue
        let y = b.doubleValue
        if let p = decimal(a), let q = decimal(b), x.isFinite, y.isFinite, isDecimal(a) || isDecimal(b) {
            switch function {
            case .add: return .decimal(p + q)
            case .subtract: return .decimal(p - q)
            case .multiply: return .decimal(p * q)
            case .divide where !q.isZero: return .decimal(p / q)
            default: break
            }
        }
        switch function {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        case .divide: return .double(x / y)
        default: return .double(x.truncatingRemainder(dividingBy: y))
        }
    }

    /// A date plus or minus seconds, or the seconds between two dates; `nil` without a date.
    private static func dateArithmetic(_ function: PredicateFunction, _ lhs: StoreValue, _ rhs: StoreValue)
        -> StoreValue?
    {
        switch (lhs, rhs) {
        case (.date(let a), .date(let b)) where function == .subtract:
            return .double(a.timeIntervalSinceReferenceDate - b.timeIntervalSinceReferenceDate)
        case (.date(let date), _):
            guard let seconds = PredicateNumber(rhs)?.doubleValue else { return .null }
            return .date(date.addingTimeInterval(function == .add ? seconds : -seconds))
        case (_, .date(let date)) where function == .add:
            guard let seconds = PredicateNumber(lhs)?.doubleValue else { return .null }
            return .date(date.addingTimeInterval(seconds))
        case (_, .date):
            return .null
        default:
            return nil
        }
    }

    private static func rounding(_ function: PredicateFunction, _ value: StoreValue) -> StoreValue {
        switch PredicateNumber(value) {
        case .int(let x)?:
            guard function == .abs else { return .int(x) }
            return x == .min ? .double(-Double(x)) : .int(Swift.abs(x))
        case .double(let x)?:
            switch function {
            case .abs: return .double(Swift.abs(x))
            case .ceiling: return .double(x.rounded(.up))
            case .floor: return .double(x.rounded(.down))
            default: return .double(x.rounded(.towardZero))
            }
        case .decimal(var x)?:
            if function == .abs { return .decimal(x.isSignMinus ? -x : x) }
            var result = Decimal()
            let mode: NSDecimalNumber.RoundingMode =
                switch function {
                case .ceiling: .up
                case .floor: .down
                default: x.isSignMinus ? .up : .down
                }
            NSDecimalRound(&result, &x, 0, mode)
            return .decimal(result)
        case nil:
            return .null
        }
    }

    private static func aggregate(_ function: PredicateFunction, _ values: [StoreValue]) -> PredicateResult {
        switch function {
        case .count: return .one(.int(Int64(values.count)))
        case .randomElement: return .one(values.randomElement() ?? .null)
        case .sum: return .one(PredicateAggregation.apply(.sum, to: values))
        case .average: return .one(PredicateAggregation.apply(.avg, to: values))
        case .min: return .one(PredicateAggregation.apply(.min, to: values))
        case .max: return .one(PredicateAggregation.apply(.max, to: values))
        case .mode:
            var counts: [StoreValue: Int] = [:]
            for value in values { counts[value, default: 0] += 1 }
            let most = counts.values.max() ?? 0
            var seen = Set<StoreValue>()
            return .many(values.filter { counts[$0] == most && seen.insert($0).inserted })
        case .median:
            let numbers = values.compactMap { PredicateNumber($0)?.doubleValue }.sorted()
            guard !numbers.isEmpty else { return .one(.null) }
            let middle = numbers.count / 2
            return .one(.double(numbers.count % 2 == 1 ? numbers[middle] : (numbers[middle - 1] + numbers[middle]) / 2))
        default:
            // stddev: the population standard deviation.
            let numbers = values.compactMap { PredicateNumber($0)?.doubleValue }
            guard !numbers.isEmpty else { return .one(.null) }
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
            return .one(.double(variance.squareRoot()))
        }
    }

    /// `castObject:toType:`: numbers, dates (as seconds since 2001) and strings converted; `nil`
    /// for a value that does not convert.
    private static func cast(_ value: StoreValue, to type: String) -> StoreValue {
        switch (type, value) {
        case (_, .null): return .null
        case ("NSDate", .date): return value
        case ("NSDate", _):
            return PredicateNumber(value).map { .date(Date(timeIntervalSinceReferenceDate: $0.doubleValue)) } ?? .null
        case ("NSString", .string): return value
        case ("NSString", .uuid(let uuid)): return .string(uuid.uuidString)
        case ("NSString", .url(let url)): return .string(url.absoluteString)
        case ("NSString", _):
            switch PredicateNumber(value) {
            case .int(let x)?: return .string(String(x))
            case .double(let x)?: return .string(String(x))
            case .decimal(let x)?: return .string(x.description)
            case nil: return .null
            }
        case (_, .date(let date)):
            let seconds = date.timeIntervalSinceReferenceDate
            return type == "NSDecimalNumber"
                ? (seconds.isFinite ? .decimal(Decimal(seconds)) : .null) : .double(seconds)
        case (_, .string(let text)):
            let posix = Locale(identifier: "en_US_POSIX")
            if type == "NSDecimalNumber" { return Decimal(string: text, locale: posix).map { .decimal($0) } ?? .null }
            if let integer = Int64(text) { return .int(integer) }
            return Double(text).map { .double($0) } ?? .null
        default:
            guard let number = PredicateNumber(value) else { return .null }
            guard type == "NSDecimalNumber" else { return number.storeValue }
            switch number {
            case .int(let x): return .decimal(Decimal(x))
            case .double(let x): return x.isFinite ? .decimal(Decimal(x)) : .null
            case .decimal: return number.storeValue
            }
        }
    }

    /// An integral value as an integer (`nil` for fractions, out-of-range numbers and non-numbers).
    static func integer(_ value: StoreValue) -> Int64? {
        switch PredicateNumber(value) {
        case .int(let x)?: return x
        case .double(let x)?: return x.rounded(.towardZero) == x ? Int64(exactly: x) : nil
        case .decimal(let x)?:
            let double = NSDecimalNumber(decimal: x).doubleValue
            return double.rounded(.towardZero) == double ? Int64(exactly: double) : nil
        case nil: return nil
        }
    }

    /// The length of a string in UTF-16 code units, as `NSString.length`; `nil` for non-strings.
    static func length(_ value: StoreValue) -> StoreValue {
        guard case .string(let text) = value else { return .null }
        return .int(Int64(text.utf16.count))
    }

    private static func decimal(_ number: PredicateNumber) -> Decimal? {
        switch number {
        case .int(let x): Decimal(x)
        case .double(let x): x.isFinite ? Decimal(x) : nil
        case .decimal(let x): x.isNaN ? nil : x
        }
    }

    private static func isDecimal(_ number: PredicateNumber) -> Bool {
        if case .decimal = number { return true }
        return false
    }
}
