import Foundation

extension StoreValue {
    /// The stored form of an `NSNumber` for an attribute of `type`; `nil` if it does not fit.
    ///
    /// An `NSNumber` carries no Swift type, so it takes the attribute's where its value means
    /// the same, as Core Data stores any `NSNumber` in a number or Boolean attribute: an
    /// integer 0 or 1 sets a Boolean, a Boolean sets an integer to 0 or 1, a floating-point
    /// number with an integral value sets an integer, and a number within the attribute's range
    /// sets a floating-point attribute (a decimal number also a decimal one). Otherwise it is the
    /// Swift number it bridges to (see `FoundationBridging.swiftNumber(_:)`); a value outside
    /// the attribute's range does not fit.
    init?(_ number: NSNumber, as type: AttributeType) {
        let candidate: StoreValue
        if let decimal = number as? NSDecimalNumber {
            switch type {
            case .decimal: candidate = .decimal(decimal.decimalValue)
            case .double, .float: candidate = .double(decimal.doubleValue)
            case .integer16, .integer32, .integer64:
                guard let exact = Int64(exactly: decimal.doubleValue), Decimal(exact) == decimal.decimalValue else {
                    return nil
                }
                candidate = .int(exact)
            default: return nil
            }
        } else {
            guard let converted = Self.candidate(number, for: type) else { return nil }
            candidate = converted
        }
        // The attribute's range decides last: 70,000 does not fit an Int16, 1e300 not a Float.
        let normalized = type.normalized(candidate)
        guard type.accepts(normalized) else { return nil }
        self = normalized
    }

    /// A plain `NSNumber` as the Swift number it bridges to, adapted to `type` where it means
    /// the same.
    private static func candidate(_ number: NSNumber, for type: AttributeType) -> StoreValue? {
        let candidate: StoreValue
        switch FoundationBridging.swiftNumber(number) {
        case let bool as Bool:
            switch type {
            case .boolean: candidate = .bool(bool)
            case .integer16, .integer32, .integer64: candidate = .int(bool ? 1 : 0)
            default: return nil
            }
        case let integer as Int64:
            candidate = type == .boolean && (integer == 0 || integer == 1) ? .bool(integer == 1) : .int(integer)
        case let double as Double:
            switch type {
            case .integer16, .integer32, .integer64:
                guard let exact = Int64(exactly: double) else { return nil }
                candidate = .int(exact)
            default: candidate = .double(double)
            }
        default: return nil
        }
        return candidate
    }
}
