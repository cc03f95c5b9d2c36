/// An aggregate that a dictionary fetch computes over the objects of each group (or over every
/// matching object, without `propertiesToGroupBy`), returned under its name.
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.propertiesToGroupBy = ["color"]
/// request.expressionsToFetch = [.count(as: "fruits"), .sum("price", as: "total")]
/// let totals = try context.fetchDictionaries(request)   // [{color, fruits, total}]
/// ```
///
/// Core Data: `NSExpressionDescription` with `NSExpression(forFunction:arguments:)` (`count:`,
/// `sum:`, `min:`, `max:`, `average:`) in `propertiesToFetch`.
public struct ExpressionDescription: Sendable, Hashable, CustomStringConvertible {
    /// The aggregate functions.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        /// The number of objects (no key path) or of non-nil values: an integer.
        case count
        /// The sum of a numeric attribute's non-nil values: an integer for integer and Bool
        /// attributes (a `Double` past `Int64`'s range), a `Double` for `Float` and `Double`, a
        /// `Decimal` for `Decimal`; 0 when there are none.
        case sum
        /// The least non-nil value of an attribute that orders (numbers, dates, strings); nil when
        /// there are none.
        case min
        /// The greatest non-nil value; nil when there are none.
        case max
        /// The mean of a numeric attribute's non-nil values (a `Double`, or a `Decimal` for
        /// `Decimal`); nil when there are none.
        case average
    }

    /// The key of the result in each returned dictionary.
    public var name: String
    /// What to compute.
    public var function: Function
    /// The attribute (or key path through to-one relationships) whose values are aggregated;
    /// `nil` only for ``Function/count``, which then counts objects.
    public var keyPath: String?

    /// An aggregate named `name` of `function` over `keyPath`.
    ///
    /// Core Data: `NSExpressionDescription` (`name`, `expression`).
    public init(name: String, function: Function, keyPath: String?) {
        self.name = name
        self.function = function
        self.keyPath = keyPath
    }

    /// The number of objects (no key path), or of objects whose `keyPath` is not nil.
    public static func count(_ keyPath: String? = nil, as name: String) -> ExpressionDescription {
        ExpressionDescription(name: name, function: .count, keyPath: keyPath)
    }

    /// The sum of `keyPath`'s values.
    public static func sum(_ keyPath: String, as name: String) -> ExpressionDescription {
        ExpressionDescription(name: name, function: .sum, keyPath: keyPath)
    }

    /// The least of `keyPath`'s values.
    public static func min(_ keyPath: String, as name: String) -> ExpressionDescription {
        ExpressionDescription(name: name, function: .min, keyPath: keyPath)
    }

    /// The greatest of `keyPath`'s values.
    public static func max(_ keyPath: String, as name: String) -> ExpressionDescription {
        ExpressionDescription(name: name, function: .max, keyPath: keyPath)
    }

    /// The mean of `keyPath`'s values.
    public static func average(_ keyPath: String, as name: String) -> ExpressionDescription {
        ExpressionDescription(name: name, function: .average, keyPath: keyPath)
    }

    /// A readable description, for logs and debugging.
    public var description: String { "\(name) = \(function.rawValue):(\(keyPath ?? "*"))" }
}
