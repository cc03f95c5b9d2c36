import Foundation

extension StoreValue {
    /// The stored form of an `NSNumber` for an attribute of `type`; `nil` if it does not fit.
    ///
    /// An `NSNumber` carries no Swift type, so it takes the attribute's where its value means
    /// the same, as Core Data stores any `NSNumber` in a number or Boolean attribute: an
    /// integral 0 or 1 sets a Boolean, a Boolean sets an integer to 0 or 1, a floating-point
    /// number with an integral value sets an integer, and any number sets a floating-point or
    /// decimal attribute. Otherwise it is the Swift number it bridges to (see
    /// `FoundationBridging.swiftNumber(_:)`).
    init?(_ number: NSNumber, as type: AttributeType) {
        if let decimal = number as? NSDecimalNumber {
            switch type {
            case .decimal: self = .decimal(decimal.decimalValue)
            case .double, .float: self = type.normalized(.double(decimal.doubleValue))
            case .integer16, .integer32, .integer64:
                guard let exact = Int64(exactly: decimal.doubleValue), Decimal(exact) == decimal.decimalValue else {
                    return nil
                }
                self = .int(exact)
            default: return nil
            }
            return
        }
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
        let normalized = type.normalized(candidate)
        guard type.accepts(normalized) else { return nil }
        self = normalized
    }
}
