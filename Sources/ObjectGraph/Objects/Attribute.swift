/// Declares a stored attribute on a `ManagedObject` subclass.
///
/// The initial value is the attribute's default; the Swift type picks the attribute type, and an
/// optional type makes the attribute optional. Without an initial value a non-optional attribute
/// must be set before the object is saved.
///
/// For example:
/// ```swift
/// final class Fruit: ManagedObject {
///     @Attribute(indexed: true) var name = ""
///     @Attribute var price: Int64 = 0
///     @Attribute var pickedAt: Date?
///     @Attribute var sku: String          // required: set it before saving
/// }
/// ```
///
/// Core Data: an `@NSManaged` property backed by an `NSAttributeDescription`.
@propertyWrapper
public struct Attribute<Value: AttributeValue> {
    /// Makes the initial value of each new object (evaluated per object, like a property
    /// initializer); `nil` when the declaration has none.
    @usableFromInline let makeInitialValue: (@Sendable () -> Value)?
    @usableFromInline let isIndexed: Bool
    @usableFromInline let renamingIdentifier: String?
    /// Builds the validation rules, when the declaration has any (most have none, and a wrapper
    /// is created for every object).
    @usableFromInline let makeValidation: (@Sendable () -> AttributeValidation)?
    /// This instance's slot in the object's values, resolved on first access.
    @usableFromInline var slot = -1

    /// Declares an attribute whose default is the initial value, evaluated once for each new
    /// object (so `= UUID()` gives every object its own).
    ///
    /// `minimum`, `maximum` (numbers, dates), `length` (characters of a string, bytes of data) and
    /// `pattern` (a regular expression the whole string must match) are checked at save.
    @inlinable
    public init(
        wrappedValue: @autoclosure @escaping @Sendable () -> Value, indexed: Bool = false,
        renamingIdentifier: String? = nil, minimum: Value? = nil, maximum: Value? = nil,
        length: ClosedRange<Int>? = nil, pattern: String? = nil
    ) {
        self.makeInitialValue = wrappedValue
        self.isIndexed = indexed
        self.renamingIdentifier = renamingIdentifier
        self.makeValidation = Self.rules(minimum: minimum, maximum: maximum, length: length, pattern: pattern)
    }

    /// Declares an attribute without a default (`nil` for an optional type), with the same rules.
    @inlinable
    public init(
        indexed: Bool = false, renamingIdentifier: String? = nil, minimum: Value? = nil, maximum: Value? = nil,
        length: ClosedRange<Int>? = nil, pattern: String? = nil
    ) {
        self.makeInitialValue = nil
        self.isIndexed = indexed
        self.renamingIdentifier = renamingIdentifier
        self.makeValidation = Self.rules(minimum: minimum, maximum: maximum, length: length, pattern: pattern)
    }

    @available(*, unavailable, message: "@Attribute can only be used on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the attribute through the enclosing object's values.
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            var slot = object[keyPath: storageKeyPath].slot
            if slot < 0 {
                slot = object.resolveWrapperSlot(storageKeyPath)
                object[keyPath: storageKeyPath].slot = slot
            }
            object.observationAccess(slot)
            guard let value = Value(storeValue: object.values[slot]) else {
                preconditionFailure(object.unreadableValueMessage(at: slot, as: Value.self))
            }
            return value
        }
        set {
            var slot = object[keyPath: storageKeyPath].slot
            if slot < 0 {
                slot = object.resolveWrapperSlot(storageKeyPath)
                object[keyPath: storageKeyPath].slot = slot
            }
            object.setStoreValue(newValue.storeValue, at: slot)
        }
    }
}

extension Attribute {
    @inlinable
    static func rules(
        minimum: Value?, maximum: Value?, length: ClosedRange<Int>?, pattern: String?
    ) -> (@Sendable () -> AttributeValidation)? {
        if minimum == nil && maximum == nil && length == nil && pattern == nil { return nil }
        let bounds = (minimum?.storeValue, maximum?.storeValue)
        return { AttributeValidation(minimum: bounds.0, maximum: bounds.1, length: length, pattern: pattern) }
    }
}

extension Attribute: DerivableProperty {
    func derive(name: String) -> DerivedProperty {
        let description = AttributeDescription(
            name: name, type: Value.attributeType, isOptional: Value.isOptionalType,
            defaultValue: makeInitialValue?().storeValue ?? .null, isIndexed: isIndexed,
            renamingIdentifier: renamingIdentifier, validation: makeValidation?() ?? AttributeValidation())
        guard let makeInitialValue else { return .attribute(description, initialValue: nil) }
        return .attribute(description, initialValue: { makeInitialValue().storeValue })
    }

    @usableFromInline var cachedSlot: Int { slot }

    @usableFromInline mutating func cacheSlot(_ slot: Int) { self.slot = slot }

    var valueType: Any.Type { Value.self }

    func readableValue(from value: StoreValue) -> StoreValue? {
        if Value(storeValue: value) != nil { return value }
        if let cases = Value.self as? any CaseIterable.Type, let first = firstCase(of: cases) as? Value {
            return first.storeValue
        }
        return nil
    }
}

private func firstCase<T: CaseIterable>(of type: T.Type) -> Any? {
    T.allCases.first
}
