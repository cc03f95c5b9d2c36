import Foundation

/// The stored form of one attribute or relationship value.
///
/// Managed objects keep their values as an array of `StoreValue`s in model order, and stores
/// persist records of them; custom ``PersistentStore`` implementations read and write this type.
/// Floating-point values compare by bit pattern, so a `NaN` equals itself and a value set back to
/// what it was leaves no change behind.
///
/// For example:
/// ```swift
/// let price: StoreValue = 120      // .int(120)
/// let name: StoreValue = "りんご"   // .string("りんご")
/// ```
public enum StoreValue: Sendable, Hashable, CustomStringConvertible {
    /// No value: an optional attribute that is `nil`, or a to-one relationship to no object.
    case null
    /// A Boolean attribute.
    case bool(Bool)
    /// Any integer attribute (16, 32 or 64 bits).
    case int(Int64)
    /// A `float` attribute.
    case float(Float)
    /// A `double` attribute.
    case double(Double)
    /// A string attribute.
    case string(String)
    /// A decimal attribute.
    // Indirect, as `object`: a value is then 24 bytes in an array, not 32 (no other payload is
    // wider than 16 bytes), which every row and every object's values pay for each slot.
    indirect case decimal(Decimal)
    /// A date attribute.
    case date(Date)
    /// Binary data, and the JSON encoding of a `codable` attribute.
    case data(Data)
    /// A UUID attribute.
    case uuid(UUID)
    /// A URL (`uri`) attribute.
    case url(URL)
    /// The destination of a to-one relationship.
    indirect case object(ObjectID)
    /// The destinations of a to-many relationship, in order for ordered relationships.
    case objects([ObjectID])

    /// Whether the two are equal.
    public static func == (lhs: StoreValue, rhs: StoreValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return a == b
        case (.decimal(let a), .decimal(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.date(let a), .date(let b)):
            return a.timeIntervalSinceReferenceDate.bitPattern
                == b.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let a), .data(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.url(let a), .url(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        case (.objects(let a), .objects(let b)): return a == b
        default: return false
        }
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .float(let value): hasher.combine(value.bitPattern)
        case .double(let value): hasher.combine(value.bitPattern)
        case .string(let value): hasher.combine(value)
        case .decimal(let value): if value.isNaN { hasher.combine(1) } else { hasher.combine(value) }
        case .date(let value): hasher.combine(value.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let value): hasher.combine(value)
        case .uuid(let value): hasher.combine(value)
        case .url(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        case .objects(let value): hasher.combine(value)
        }
    }

    /// The order of two numbers or two dates (integers, floats, doubles and decimals compare
    /// numerically with each other); `nil` for values that have no order between them.
    static func compare(_ lhs: StoreValue, _ rhs: StoreValue) -> ComparisonResult? {
        func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
            a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        }
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return order(a, b)
        case (.date(let a), .date(let b)): return order(a, b)
        case (.decimal(let a), .decimal(let b)): return order(a, b)
        case (.decimal(let a), _): return rhs.decimalValue.map { order(a, $0) }
        case (_, .decimal(let b)): return lhs.decimalValue.map { order($0, b) }
        default:
            guard let a = lhs.doubleValue, let b = rhs.doubleValue, !a.isNaN, !b.isNaN else { return nil }
            return order(a, b)
        }
    }

    private var doubleValue: Double? {
        switch self {
        case .int(let number): Double(number)
        case .float(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private var decimalValue: Decimal? {
        switch self {
        case .int(let number): Decimal(number)
        case .float(let number) where number.isFinite: Decimal(Double(number))
        case .double(let number) where number.isFinite: Decimal(number)
        case .decimal(let number): number
        default: nil
        }
    }

    /// Whether a relationship value includes `id`.
    func refers(to id: ObjectID) -> Bool {
        switch self {
        case .object(let target): target == id
        case .objects(let targets): targets.contains(id)
        default: false
        }
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the stored kind, for error messages.
    var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "Bool"
        case .int: "integer"
        case .float: "Float"
        case .double: "Double"
        case .string: "String"
        case .decimal: "Decimal"
        case .date: "Date"
        case .data: "Data"
        case .uuid: "UUID"
        case .url: "URL"
        case .object: "object"
        case .objects: "objects"
        }
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .float(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value.debugDescription
        case .decimal(let value): "\(value)"
        case .date(let value): "\(value)"
        case .data(let value): "<\(value.count) bytes>"
        case .uuid(let value): value.uuidString
        case .url(let value): value.absoluteString
        case .object(let value): "\(value)"
        case .objects(let value): "\(value)"
        }
    }
}

extension Decimal {
    /// Parses the text the stores write for a decimal (`description`, which is "NaN" for NaN).
    init?(storedText text: String) {
        if text == "NaN" {
            self = .nan
            return
        }
        guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        self = number
    }
}

extension StoreValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    /// Creates `.null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates `.bool` from a Boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates `.int` from an integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// Creates `.double` from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates `.string` from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}
