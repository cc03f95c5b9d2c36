/// The functions of `NSExpression` that predicates can call, by their `NSExpression` names.
///
/// Arithmetic and bitwise operators parse to the functions Apple parses them to (`a + b` is
/// `add:to:`), so one evaluator serves both spellings.
enum PredicateFunction: String, CaseIterable {
    case now, random
    case randomn = "randomn:"
    case lowercase = "lowercase:", uppercase = "uppercase:"
    case abs = "abs:", sqrt = "sqrt:", log = "log:", ln = "ln:", exp = "exp:"
    case ceiling = "ceiling:", floor = "floor:", trunc = "trunc:"
    case onesComplement = "onesComplement:", noindex = "noindex:"
    case sum = "sum:", count = "count:", min = "min:", max = "max:", average = "average:"
    case median = "median:", mode = "mode:", stddev = "stddev:"
    /// `random:`: a random element of a collection.
    case randomElement = "random:"
    /// `length:`: a string's length in UTF-16 code units, as `key.length`.
    case length = "length:"
    case add = "add:to:", subtract = "from:subtract:", multiply = "multiply:by:", divide = "divide:by:"
    case modulus = "modulus:by:", power = "raise:toPower:"
    case bitwiseAnd = "bitwiseAnd:with:", bitwiseOr = "bitwiseOr:with:", bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:", rightShift = "rightshift:by:"
    /// `CAST(x, "NSNumber")`: a value converted to `NSNumber`, `NSDecimalNumber`, `NSDate` or
    /// `NSString`.
    case cast = "castObject:toType:"

    /// The types `castObject:toType:` converts to.
    static let castTypes: Set<String> = ["NSNumber", "NSDecimalNumber", "NSDate", "NSString"]

    /// The number of arguments.
    var arity: Int {
        switch self {
        case .now, .random: 0
        case .add, .subtract, .multiply, .divide, .modulus, .power, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift,
            .rightShift, .cast:
            2
        default: 1
        }
    }

    /// Whether the function takes a collection (`sum:`, `average:`, …) rather than one value.
    var isAggregate: Bool {
        switch self {
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev, .randomElement: true
        default: false
        }
    }

    /// Whether the function works on integers only (the bitwise operators).
    var isBitwise: Bool {
        switch self {
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement: true
        default: false
        }
    }

    /// Whether each call may give another result (`random`, `randomn:`), so that it is never
    /// computed once for all objects.
    var isRandom: Bool { self == .random || self == .randomn || self == .randomElement }

    /// The function a name in a format string calls: Apple's name (`average:`, `add:to:`) or
    /// its first part without the colon (`average`, as in Apple's grammar), in any case. Where
    /// a name fits two functions (`random` and `random:`), the one taking `argumentCount`
    /// arguments.
    init?(formatName name: String, argumentCount: Int? = nil) {
        let lower = name.lowercased()
        let named = Self.allCases.filter { function in
            let canonical = function.rawValue.lowercased()
            return canonical == lower
                || (function.arity <= 1 && canonical.hasSuffix(":") && canonical.dropLast() == lower)
        }
        guard let function = named.first(where: { $0.arity == argumentCount }) ?? named.first else { return nil }
        self = function
    }

    /// The infix (or prefix) operator that prints the function, with its precedence.
    var infix: PredicateInfixOperator? { PredicateInfixOperator.allCases.first { $0.function == self } }
}

/// The arithmetic and bitwise operators between operands, loosest first:
/// `|`, `^`, `&`, `<<` `>>`, `+` `-`, `*` `/` `%`-free, `**` (right-associative), then the
/// prefix operators `-` and `~`.
enum PredicateInfixOperator: String, CaseIterable {
    case bitwiseOr = "|", bitwiseXor = "^", bitwiseAnd = "&"
    case leftShift = "<<", rightShift = ">>"
    case add = "+", subtract = "-", multiply = "*", divide = "/", power = "**"

    var function: PredicateFunction {
        switch self {
        case .bitwiseOr: .bitwiseOr
        case .bitwiseXor: .bitwiseXor
        case .bitwiseAnd: .bitwiseAnd
        case .leftShift: .leftShift
        case .rightShift: .rightShift
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .power: .power
        }
    }

    /// Higher binds tighter.
    var precedence: Int {
        switch self {
        case .bitwiseOr: 1
        case .bitwiseXor: 2
        case .bitwiseAnd: 3
        case .leftShift, .rightShift: 4
        case .add, .subtract: 5
        case .multiply, .divide: 6
        case .power: 7
        }
    }

    var isRightAssociative: Bool { self == .power }

    /// The precedence of the prefix operators `-` and `~`: tighter than any infix operator.
    static let prefixPrecedence = 8
}
