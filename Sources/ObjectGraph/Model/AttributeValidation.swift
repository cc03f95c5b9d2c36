/// Rules an attribute's value must meet when its object is saved; `nil` values are checked only
/// for optionality.
///
/// For example:
/// ```swift
/// AttributeDescription(name: "price", type: .integer64,
///                      validation: AttributeValidation(minimum: 0, maximum: 10_000))
/// AttributeDescription(name: "code", type: .string,
///                      validation: AttributeValidation(length: 3...3, pattern: "[A-Z]+"))
/// ```
///
/// Core Data: the minimum/maximum value, length and regular-expression settings of
/// `NSAttributeDescription` validation predicates.
public struct AttributeValidation: Sendable, Hashable {
    /// The smallest allowed value (inclusive), for numbers and dates.
    public var minimum: StoreValue?
    /// The largest allowed value (inclusive), for numbers and dates.
    public var maximum: StoreValue?
    /// The allowed length: characters for strings, bytes for binary data.
    public var length: ClosedRange<Int>?
    /// A regular expression that the whole string must match.
    public var pattern: String?

    /// Rules; with no arguments, none.
    public init(
        minimum: StoreValue? = nil, maximum: StoreValue? = nil, length: ClosedRange<Int>? = nil, pattern: String? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.length = length
        self.pattern = pattern
    }

    /// Whether there are no rules.
    public var isEmpty: Bool { minimum == nil && maximum == nil && length == nil && pattern == nil }
}
