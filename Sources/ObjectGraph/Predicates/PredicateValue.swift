import Foundation

/// A constant bound into a predicate: a literal of the format string, a substitution argument
/// or a substitution variable's value.
///
/// Values travel inside the expression tree, never spliced into format text, so a string with
/// quotes or a `%@` inside it is always just a string.
///
/// For example:
/// ```swift
/// let tree = try FetchPredicate(format: "name IN %@", ["apple", "pear"]).expression
/// // .comparison(… rhs: .constant(.array([.string("apple"), .string("pear")])) …)
/// ```
///
/// Floating-point values are equal when they are numerically equal or both NaN, so that a tree
/// holding a NaN equals its own copy.
///
/// Core Data: the constant values of `NSExpression(forConstantValue:)`.
public indirect enum PredicateValue: Sendable, Hashable, CustomStringConvertible {
    /// `nil` / `NULL`.
    case null
    /// `TRUE` / `FALSE`, or a Boolean argument.
    case bool(Bool)
    /// Any integer (16, 32 or 64 bits).
    case int(Int64)
    /// A `Double` (a `Float` argument is widened exactly).
    case double(Double)
    /// A `Decimal` argument.
    case decimal(Decimal)
    /// A quoted string, or a string argument.
    case string(String)
    /// A `Date` argument (or `CAST(n, "NSDate")`).
    case date(Date)
    /// A `Data` argument.
    case data(Data)
    /// A `UUID` argument.
    case uuid(UUID)
    /// A `URL` argument.
    case url(URL)
    /// A managed object, by its ID.
    case object(ObjectID)
    /// A collection of values: an `{…}` literal, an array, or a set (in a canonical order).
    case array([PredicateValue])

    /// Whether the two are equal.
    public static func == (lhs: PredicateValue, rhs: PredicateValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.decimal(let a), .decimal(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.url(let a), .url(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        default: return false
        }
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .double(let value):
            hasher.combine(value.isNaN ? Double.nan.bitPattern : (value == 0 ? 0 : value.bitPattern))
        case .decimal(let value):
            if value.isNaN { hasher.combine(1) } else { hasher.combine(value) }
        case .string(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .uuid(let value): hasher.combine(value)
        case .url(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        }
    }

    /// The value in format syntax, as ``PredicateExpression/description`` prints it.
    public var description: String { PredicatePrinter.literal(self) }

    /// The stored form of a scalar value; `nil` for an array.
    var storeValue: StoreValue? {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .decimal(let value): .decimal(value)
        case .string(let value): .string(value)
        case .date(let value): .date(value)
        case .data(let value): .data(value)
        case .uuid(let value): .uuid(value)
        case .url(let value): .url(value)
        case .object(let value): .object(value)
        case .array: nil
        }
    }

    /// The elements of an array value; `nil` for a scalar.
    var elements: [PredicateValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The kind's name with its article ("an integer", "a String"), for error messages.
    var kindPhrase: String {
        elements != nil ? "a collection" : "\(["integer", "object"].contains(kindName) ? "an" : "a") \(kindName)"
    }

    /// A short name of the value's kind, for error messages (never the value itself).
    var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "Bool"
        case .int: "integer"
        case .double: "Double"
        case .decimal: "Decimal"
        case .string: "String"
        case .date: "Date"
        case .data: "Data"
        case .uuid: "UUID"
        case .url: "URL"
        case .object: "object"
        case .array: "collection"
        }
    }
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral
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
    /// Creates `.array` from an array literal.
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
}

// MARK: - Codable

extension PredicateValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case null, bool, int, double, decimal, string, date, data, uuid, url, object, array
    }

    /// Encodes as a one-key object naming the kind, such as `{"int": 3}`; non-finite doubles and
    /// decimals are written as strings so that every encoder accepts them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .null: try container.encodeNil(forKey: .null)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .int(let value): try container.encode(value, forKey: .int)
        case .double(let value):
            if value.isFinite {
                try container.encode(value, forKey: .double)
            } else {
                try container.encode(value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf"), forKey: .double)
            }
        case .decimal(let value): try container.encode(value.isNaN ? "nan" : value.description, forKey: .decimal)
        case .string(let value): try container.encode(value, forKey: .string)
        case .date(let value): try container.encode(value.timeIntervalSinceReferenceDate, forKey: .date)
        case .data(let value): try container.encode(value.base64EncodedString(), forKey: .data)
        case .uuid(let value): try container.encode(value.uuidString, forKey: .uuid)
        case .url(let value): try container.encode(value.absoluteString, forKey: .url)
        case .object(let value): try container.encode(value, forKey: .object)
        case .array(let value): try container.encode(value, forKey: .array)
        }
    }

    /// Decodes a value that `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "A predicate value has exactly one kind key."))
        }
        func corrupt(_ what: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: container, debugDescription: "Not a valid \(what).")
        }
        switch key {
        case .null: self = .null
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .int: self = .int(try container.decode(Int64.self, forKey: key))
        case .double:
            if let text = try? container.decode(String.self, forKey: key) {
                guard let value = Double(text) else { throw corrupt("double") }
                self = .double(value)
            } else {
                self = .double(try container.decode(Double.self, forKey: key))
            }
        case .decimal:
            let text = try container.decode(String.self, forKey: key)
            if text == "nan" {
                self = .decimal(.nan)
            } else {
                guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw corrupt("decimal")
                }
                self = .decimal(value)
            }
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .date: self = .date(Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: key)))
        case .data:
            guard let data = Data(base64Encoded: try container.decode(String.self, forKey: key)) else {
                throw corrupt("base64 data value")
            }
            self = .data(data)
        case .uuid:
            guard let uuid = UUID(uuidString: try container.decode(String.self, forKey: key)) else {
                throw corrupt("UUID")
            }
            self = .uuid(uuid)
        case .url:
            guard let url = URL(string: try container.decode(String.self, forKey: key)) else { throw corrupt("URL") }
            self = .url(url)
        case .object: self = .object(try container.decode(ObjectID.self, forKey: key))
        case .array: self = .array(try container.decode([PredicateValue].self, forKey: key))
        }
    }
}
