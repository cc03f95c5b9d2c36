import Foundation

/// A Swift type that can be the value of an `@Attribute` property.
///
/// The library conforms `String`, `Bool`, `Int`, `Int16`, `Int32`, `Int64`, `Float`, `Double`,
/// `Decimal`, `Date`, `Data`, `UUID`, `URL` and optionals of each. Add the conformance (with no
/// body) to a `RawRepresentable` enum to store its raw value, or to any `Codable` type to store
/// its JSON encoding. A `Codable` value whose own `encode(to:)` throws cannot be stored: setting it
/// through its property is a programmer error that stops the program, and
/// ``ManagedObject/setValue(_:forKey:)`` throws `typeMismatch` for it.
///
/// For example:
/// ```swift
/// enum Ripeness: String, AttributeValue { case green, ripe }
/// struct Origin: Codable, AttributeValue { var country: String }
/// ```
public protocol AttributeValue: SendableMetatype {
    /// The attribute type this Swift type is stored as.
    static var attributeType: AttributeType { get }
    /// Whether the type admits `nil` (only `Optional` does).
    static var isOptionalType: Bool { get }
    /// Creates a value from its stored form; `nil` if the stored form does not fit the type.
    init?(storeValue: StoreValue)
    /// The stored form of the value.
    var storeValue: StoreValue { get }
}

extension AttributeValue {
    /// `false`: only `Optional` admits `nil`.
    public static var isOptionalType: Bool { false }
}

extension String: AttributeValue {
    /// Stored as ``AttributeType/string``.
    public static var attributeType: AttributeType { .string }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .string(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .string(self) }
}

extension Bool: AttributeValue {
    /// Stored as ``AttributeType/boolean``.
    public static var attributeType: AttributeType { .boolean }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .bool(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .bool(self) }
}

extension Int: IntegerAttributeValue {
    /// Stored as ``AttributeType/integer64``.
    public static var attributeType: AttributeType { .integer64 }
}
extension Int64: IntegerAttributeValue {
    /// Stored as ``AttributeType/integer64``.
    public static var attributeType: AttributeType { .integer64 }
}
extension Int32: IntegerAttributeValue {
    /// Stored as ``AttributeType/integer32``.
    public static var attributeType: AttributeType { .integer32 }
}
extension Int16: IntegerAttributeValue {
    /// Stored as ``AttributeType/integer16``.
    public static var attributeType: AttributeType { .integer16 }
}

extension Float: AttributeValue {
    /// Stored as ``AttributeType/float``.
    public static var attributeType: AttributeType { .float }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .float(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .float(self) }
}

extension Double: AttributeValue {
    /// Stored as ``AttributeType/double``.
    public static var attributeType: AttributeType { .double }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .double(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .double(self) }
}

extension Decimal: AttributeValue {
    /// Stored as ``AttributeType/decimal``.
    public static var attributeType: AttributeType { .decimal }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .decimal(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .decimal(self) }
}

extension Date: AttributeValue {
    /// Stored as ``AttributeType/date``.
    public static var attributeType: AttributeType { .date }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .date(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .date(self) }
}

extension Data: AttributeValue {
    /// Stored as ``AttributeType/binary``.
    public static var attributeType: AttributeType { .binary }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .data(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .data(self) }
}

extension UUID: AttributeValue {
    /// Stored as ``AttributeType/uuid``.
    public static var attributeType: AttributeType { .uuid }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .uuid(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .uuid(self) }
}

extension URL: AttributeValue {
    /// Stored as ``AttributeType/uri``.
    public static var attributeType: AttributeType { .uri }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .url(let value) = storeValue else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .url(self) }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    /// Stored as the wrapped type's attribute type.
    public static var attributeType: AttributeType { Wrapped.attributeType }
    /// `true`: an optional admits `nil`.
    public static var isOptionalType: Bool { true }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        if case .null = storeValue {
            self = .none
            return
        }
        guard let value = Wrapped(storeValue: storeValue) else { return nil }
        self = .some(value)
    }
    /// The value's stored form.
    public var storeValue: StoreValue { self?.storeValue ?? .null }
}

extension AttributeValue where Self: RawRepresentable, RawValue: AttributeValue {
    /// Stored as the raw value's attribute type.
    public static var attributeType: AttributeType { RawValue.attributeType }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard let raw = RawValue(storeValue: storeValue), let value = Self(rawValue: raw) else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { rawValue.storeValue }
}

extension AttributeValue where Self: Codable {
    /// Stored as ``AttributeType/codable``.
    public static var attributeType: AttributeType { .codable }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .data(let data) = storeValue,
            let value = try? CodableAttributeCoding.decoder().decode(Self.self, from: data)
        else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue {
        do {
            return .data(try CodableAttributeCoding.encoder().encode(self))
        } catch {
            preconditionFailure("\(Self.self) could not be encoded as a codable attribute value: \(error)")
        }
    }
}

/// A raw-representable type that is also `Codable` is stored by its raw value.
extension AttributeValue where Self: RawRepresentable & Codable, RawValue: AttributeValue {
    /// Stored as the raw value's attribute type.
    public static var attributeType: AttributeType { RawValue.attributeType }
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard let raw = RawValue(storeValue: storeValue), let value = Self(rawValue: raw) else { return nil }
        self = value
    }
    /// The value's stored form.
    public var storeValue: StoreValue { rawValue.storeValue }
}

/// The JSON coding of `codable` attributes: sorted keys so equal values store equal bytes, and
/// non-finite floating-point values allowed.
enum CodableAttributeCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        decoder.dateDecodingStrategy = .custom { decoder in
            Date(timeIntervalSinceReferenceDate: try decoder.singleValueContainer().decode(Double.self))
        }
        return decoder
    }
}
