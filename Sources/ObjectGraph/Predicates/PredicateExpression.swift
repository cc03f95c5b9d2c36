/// The portable form of a predicate: an expression tree of our own that format strings parse
/// into and that prints back to format syntax.
///
/// Trees are values: `Sendable`, `Codable` and comparable with `==`. Constants are bound
/// ``PredicateValue``s, never format text. Printing a tree and parsing the text gives the same
/// tree back.
///
/// For example:
/// ```swift
/// let predicate = try FetchPredicate(format: "price > %d AND name BEGINSWITH[c] %@", 100, "a")
/// if case .and(let operands) = predicate.expression { print(operands[0]) }   // price > 100
/// ```
///
/// Core Data: `NSPredicate`, `NSCompoundPredicate` and `NSComparisonPredicate`.
public indirect enum PredicateExpression: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// `NOT p`.
    case not(PredicateExpression)
    /// `p AND q AND …`: every operand holds (true for none). A chain of `AND`s at one level
    /// of parentheses is one `and`, so long chains make shallow trees.
    case and([PredicateExpression])
    /// `p OR q OR …`: some operand holds (false for none).
    case or([PredicateExpression])
    /// `lhs op rhs`, possibly with a modifier and options.
    case comparison(Comparison)

    /// A comparison of two operands, such as `ANY fruits.name BEGINSWITH[cd] "a"`.
    ///
    /// Core Data: `NSComparisonPredicate`.
    public struct Comparison: Sendable, Hashable, Codable {
        /// `ANY` or `ALL` applied to the left operand (`NONE` parses as `NOT ANY`).
        public var modifier: Modifier
        /// The left operand.
        public var lhs: Operand
        /// The operator.
        public var `operator`: Operator
        /// The right operand.
        public var rhs: Operand
        /// `[c]`, `[d]` or `[cd]`.
        public var options: Options

        /// Creates a comparison.
        public init(
            _ lhs: Operand, _ operator: Operator, _ rhs: Operand, modifier: Modifier = .direct, options: Options = []
        ) {
            self.modifier = modifier
            self.lhs = lhs
            self.operator = `operator`
            self.rhs = rhs
            self.options = options
        }
    }

    /// How a comparison treats a collection on its left.
    ///
    /// Core Data: `NSComparisonPredicate.Modifier`.
    public enum Modifier: String, Sendable, Hashable, Codable, CaseIterable {
        /// Compare the value itself; a collection reached through a to-many key path is compared
        /// element by element, as with `ANY`.
        case direct
        /// `ANY` / `SOME`: some element matches.
        case any
        /// `ALL`: every element matches (true for an empty collection).
        case all
    }

    /// A comparison operator.
    ///
    /// Core Data: `NSComparisonPredicate.Operator`.
    public enum Operator: String, Sendable, Hashable, Codable, CaseIterable {
        /// `==` / `=`.
        case equalTo
        /// `!=` / `<>`.
        case notEqualTo
        /// `<`.
        case lessThan
        /// `<=` / `=<`.
        case lessThanOrEqualTo
        /// `>`.
        case greaterThan
        /// `>=` / `=>`.
        case greaterThanOrEqualTo
        /// `BETWEEN {lo, hi}`: inclusive at both ends.
        case between
        /// `IN`: membership in a collection (or a substring of a string).
        case `in`
        /// `CONTAINS`: a substring of a string, or an element of a collection.
        case contains
        /// `BEGINSWITH`: a prefix of a string.
        case beginsWith
        /// `ENDSWITH`: a suffix of a string.
        case endsWith
        /// `LIKE`: whole-string match with `*` (any run) and `?` (one character) wildcards.
        case like
        /// `MATCHES`: whole-string regular expression match.
        case matches

        /// Whether the operator compares strings only.
        var isStringOperator: Bool {
            switch self {
            case .beginsWith, .endsWith, .like, .matches: true
            default: false
            }
        }

        /// Whether the operator orders its operands.
        var isOrdering: Bool {
            switch self {
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between: true
            default: false
            }
        }
    }

    /// The comparison options of string operators.
    ///
    /// Core Data: `NSComparisonPredicate.Options`.
    public struct Options: OptionSet, Sendable, Hashable, Codable {
        /// The options' bits.
        public let rawValue: Int
        /// Creates options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `[c]`: compare without regard to case (Unicode case folding).
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: compare without regard to diacritics (é equals e).
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: the strings are already normalized, so comparison may skip normalizing them.
        /// Results are those without `[n]`: comparison here is by canonical equivalence anyway,
        /// and `[c]`/`[d]` still fold.
        public static let normalized = Options(rawValue: 4)
        /// `[l]`: compare as the current locale does. Accepted and kept; comparison here is
        /// locale-independent (Unicode default case folding), which differs from a locale's only
        /// for locales with their own case rules (Turkish dotted and dotless i).
        public static let localeSensitive = Options(rawValue: 8)

        /// The options that change results: `[c]` and `[d]`.
        var folding: Options { intersection([.caseInsensitive, .diacriticInsensitive]) }
    }

    /// A value in a comparison: a constant, a key path, a variable, or an expression over a
    /// collection.
    ///
    /// Core Data: `NSExpression`.
    public indirect enum Operand: Sendable, Hashable, Codable {
        /// A bound constant, such as a literal or a `%@` argument.
        case constant(PredicateValue)
        /// `SELF`: the object being evaluated.
        case evaluatedObject
        /// `$name`: a substitution variable, or the element variable of a `SUBQUERY`.
        case variable(String)
        /// A key path from `SELF` or from a variable: `basket.owner.name`, `$f.price`.
        case keyPath(Operand, [String])
        /// An `{…}` list that holds more than constants, such as `{price, 100}`.
        case aggregate([Operand])
        /// A collection operator: `fruits.@count`, `fruits.@sum.price`.
        case collection(Operand, CollectionFunction, [String])
        /// `SUBQUERY(collection, $variable, predicate)`: the elements that match.
        case subquery(Operand, variable: String, PredicateExpression)
        /// A function of `NSExpression` by its name, such as `now`, `abs:` or `average:`.
        /// Arithmetic and bitwise operators are functions too: `price * 2` is
        /// `.function("multiply:by:", [price, 2])`, `-x` is `.function("from:subtract:", [0, x])`.
        case function(String, [Operand])
        /// `TERNARY(predicate, a, b)`: `a` where the predicate holds, else `b`.
        case ternary(PredicateExpression, Operand, Operand)
        /// `collection[index]`, `collection[FIRST]`, `collection[LAST]` or `collection[SIZE]`.
        case index(Operand, Index)

        /// A key path from `SELF`, such as `.key("basket.owner.name")`.
        public static func key(_ path: String) -> Operand {
            .keyPath(.evaluatedObject, path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        }
    }

    /// A collection operator.
    ///
    /// Core Data: the key-value coding collection operators.
    public enum CollectionFunction: String, Sendable, Hashable, Codable, CaseIterable {
        /// `@count`: the number of elements.
        case count
        /// `@sum`: the sum of the numeric elements (0 when there are none).
        case sum
        /// `@avg`: the average of the numeric elements (`nil` when there are none).
        case avg
        /// `@min`, `@max`: the least and greatest element (`nil` when there are none).
        case min, max
    }

    /// The predicate in format syntax; parsing it gives this tree back.
    public var description: String { PredicatePrinter.predicate(self) }
}
