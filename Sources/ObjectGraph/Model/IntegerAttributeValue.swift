import Foundation

/// Integer attribute values share one implementation.
public protocol IntegerAttributeValue: AttributeValue, FixedWidthInteger {}

extension IntegerAttributeValue {
    public init?(storeValue: StoreValue) {
        guard case .int(let value) = storeValue, let exact = Self(exactly: value) else { return nil }
        self = exact
    }
    public var storeValue: StoreValue { .int(Int64(self)) }
}
