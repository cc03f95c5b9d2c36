import Foundation

/// Integer attribute values share one implementation.
public protocol IntegerAttributeValue: AttributeValue, FixedWidthInteger {}

extension IntegerAttributeValue {
    /// Creates the value from its stored form; `nil` if the stored form does not fit the type.
    public init?(storeValue: StoreValue) {
        guard case .int(let value) = storeValue, let exact = Self(exactly: value) else { return nil }
        self = exact
    }
    /// The value's stored form.
    public var storeValue: StoreValue { .int(Int64(self)) }
}
