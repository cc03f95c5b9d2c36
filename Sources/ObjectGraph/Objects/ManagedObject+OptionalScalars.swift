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
        if let zero = attribute.type.zeroValue, let value = Value(storeValue: zero) { return value }
        return Value(storeValue: attribute.defaultValue)
    }
}
