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
    public static var isOptionalType: Bool { false }
}

extension String: AttributeValue {
    public static var attributeType: AttributeType { .string }
    public init?(storeValue: StoreValue) {
        guard case .string(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .string(self) }
}

extension Bool: AttributeValue {
    public static var attributeType: AttributeType { .boolean }
    public init?(storeValue: StoreValue) {
        guard case .bool(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .bool(self) }
}

extension Int: IntegerAttributeValue { public static var attributeType: AttributeType { .integer64 } }
extension Int64: IntegerAttributeValue { public static var attributeType: AttributeType { .integer64 } }
extension Int32: IntegerAttributeValue { public static var attributeType: AttributeType { .integer32 } }
extension Int16: IntegerAttributeValue { public static var attributeType: AttributeType { .integer16 } }

extension Float: AttributeValue {
    public static var attributeType: AttributeType { .float }
    public init?(storeValue: StoreValue) {
        guard case .float(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .float(self) }
}

extension Double: AttributeValue {
    public static var attributeType: AttributeType { .double }
    public init?(storeValue: StoreValue) {
        guard case .double(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .double(self) }
}

extension Decimal: AttributeValue {
    public static var attributeType: AttributeType { .decimal }
    public init?(storeValue: StoreValue) {
        guard case .decimal(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .decimal(self) }
}

extension Date: AttributeValue {
    public static var attributeType: AttributeType { .date }
    public init?(storeValue: StoreValue) {
        guard case .date(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .date(self) }
}

extension Data: AttributeValue {
    public static var attributeType: AttributeType { .binary }
    public init?(storeValue: StoreValue) {
        guard case .data(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .data(self) }
}

extension UUID: AttributeValue {
    public static var attributeType: AttributeType { .uuid }
    public init?(storeValue: StoreValue) {
        guard case .uuid(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .uuid(self) }
}

extension URL: AttributeValue {
    public static var attributeType: AttributeType { .uri }
    public init?(storeValue: StoreValue) {
        guard case .url(let value) = storeValue else { return nil }
        self = value
    }
    public var storeValue: StoreValue { .url(self) }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptionalType: Bool { true }
    public init?(storeValue: StoreValue) {
        if case .null = storeValue {
            self = .none
            return
        }
        guard let value = Wrapped(storeValue: storeValue) else { return nil }
        self = .some(value)
    }
    public var storeValue: StoreValue { self?.storeValue ?? .null }
}

extension AttributeValue where Self: RawRepresentable, RawValue: AttributeValue {
    public static var attributeType: AttributeType { RawValue.attributeType }
    public init?(storeValue: StoreValue) {
        guard let raw = RawValue(storeValue: storeValue), let value = Self(rawValue: raw) else { return nil }
        self = value
    }
    public var storeValue: StoreValue { rawValue.storeValue }
}

extension AttributeValue where Self: Codable {
    public static var attributeType: AttributeType { .codable }
    public init?(storeValue: StoreValue) {
        guard case .data(let data) = storeValue,
            let value = try? CodableAttributeCoding.decoder().decode(Self.self, from: data)
        else { return nil }
        self = value
    }
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
    public static var attributeType: AttributeType { RawValue.attributeType }
    public init?(storeValue: StoreValue) {
        guard let raw = RawValue(storeValue: storeValue), let value = Self(rawValue: raw) else { return nil }
        self = value
    }
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
