import Foundation

extension StoreValue {
    /// Converts an untyped Swift value to the stored form of `attribute`; `nil` if it cannot.
    init?(converting value: Any?, to attribute: AttributeDescription) {
        guard let value = FoundationBridging.unwrapped(value, keepingNumbers: true) else {
            // nil is accepted for every attribute; a required one fails validation at save.
            self = .null
            return
        }
        let type = attribute.type
        if Swift.type(of: value) is NSObject.Type, let number = value as? NSNumber {
            // An NSNumber is untyped: it takes the attribute's type where its value fits.
            guard let converted = StoreValue(number, as: type) else { return nil }
            self = converted
            return
        }
        if type == .codable, let encodable = value as? any Encodable, !(value is Data) {
            guard let data = try? CodableAttributeCoding.encoder().encode(encodable) else { return nil }
            self = .data(data)
            return
        }
        var candidate: StoreValue
        if let known = value as? any AttributeValue {
            candidate = known.storeValue
        } else if let integer = value as? any BinaryInteger {
            guard let exact = Int64(exactly: integer) else { return nil }
            candidate = .int(exact)
        } else if let number = value as? any BinaryFloatingPoint {
            candidate = .double(Double(number))
        } else if let stored = value as? StoreValue {
            candidate = stored
        } else {
            return nil
        }
        candidate = type.normalized(candidate)
        if case .null = candidate {
            self = .null
            return
        }
        guard type.accepts(candidate) else { return nil }
        self = candidate
    }
}
