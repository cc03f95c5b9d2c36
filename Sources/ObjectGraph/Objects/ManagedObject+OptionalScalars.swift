import Foundation

extension ManagedObject {
    /// What a plain (non-optional) Swift property reads for a `nil` stored in an attribute that
    /// is optional in the model (`@Attribute(optional: true) var done = false`): the zero of the
    /// attribute's type, or the declared default where the zero is no value of `Value`; `nil`
    /// when the slot holds a value, or the attribute is required.
    ///
    /// Core Data: the scalar accessors of an optional attribute read `0` or `NO` for `nil`.
    @usableFromInline
    func scalarValue<Value: AttributeValue>(forNilAt slot: Int, as type: Value.Type) -> Value? {
        guard values[slot] == .null, info.isAttribute(slot) else { return nil }
        let attribute = info.attribute(at: slot)
        guard attribute.isOptional else { return nil }
        if let zero = Self.zeroValue(of: attribute.type), let value = Value(storeValue: zero) { return value }
        return Value(storeValue: attribute.defaultValue)
    }

    /// The value Core Data's scalar accessors read for `nil`, extended to the other plain types.
    private static func zeroValue(of type: AttributeType) -> StoreValue? {
        switch type {
        case .boolean: .bool(false)
        case .integer16, .integer32, .integer64: .int(0)
        case .float: .float(0)
        case .double: .double(0)
        case .decimal: .decimal(0)
        case .string: .string("")
        case .binary: .data(Data())
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .uuid, .uri, .codable: nil
        }
    }
}
