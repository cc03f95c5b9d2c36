import Foundation

/// The storage type of an attribute.
///
/// Core Data: `NSAttributeDescription.AttributeType`.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Text (`String`).
    case string
    /// `true` or `false` (`Bool`).
    case boolean
    /// A 16-bit integer (`Int16`).
    case integer16
    /// A 32-bit integer (`Int32`).
    case integer32
    /// A 64-bit integer (`Int64`, `Int`).
    case integer64
    /// A 32-bit floating-point number (`Float`).
    case float
    /// A 64-bit floating-point number (`Double`).
    case double
    /// A decimal number, exact in base 10 (`Decimal`).
    case decimal
    /// A point in time (`Date`).
    case date
    /// Bytes (`Data`).
    case binary
    /// A universally unique identifier (`UUID`).
    case uuid
    /// A URL (`URL`).
    case uri
    /// Any `Codable` value, stored as its JSON encoding.
    case codable

    /// Whether `value` is a valid non-null value of this type.
    func accepts(_ value: StoreValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.float, .float), (.double, .double),
            (.decimal, .decimal), (.date, .date), (.binary, .data), (.codable, .data),
            (.uuid, .uuid), (.uri, .url), (.integer64, .int):
            return true
        case (.integer16, .int(let number)): return Int16(exactly: number) != nil
        case (.integer32, .int(let number)): return Int32(exactly: number) != nil
        default: return false
        }
    }

    /// Converts a literal-friendly value to this type's representation where that is lossless
    /// (an integer literal used as the default of a floating-point attribute, for example).
    func normalized(_ value: StoreValue) -> StoreValue {
        switch (self, value) {
        case (.double, .int(let number)): return .double(Double(number))
        case (.double, .float(let number)): return .double(Double(number))
        case (.float, .int(let number)): return .float(Float(number))
        case (.float, .double(let number)) where !number.isFinite || Float(number).isFinite:
            return .float(Float(number))
        case (.decimal, .int(let number)): return .decimal(Decimal(number))
        case (.decimal, .double(let number)) where number.isFinite: return .decimal(Decimal(number))
        case (.decimal, .float(let number)) where number.isFinite: return .decimal(Decimal(Double(number)))
        default: return value
        }
    }
}
