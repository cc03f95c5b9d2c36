/// Declares a stored attribute on a `ManagedObject` subclass.
///
/// The initial value is the attribute's default; the Swift type picks the attribute type, and an
/// optional type makes the attribute optional. Without an initial value a non-optional attribute
/// must be set before the object is saved.
///
/// `optional: true` makes the attribute optional in the model while the Swift type stays a plain
/// value, as Core Data's scalar accessors ("Use Scalar Type" on an optional attribute) do: the
/// store may hold `nil` (set with `setValue(nil, forKey:)`, matched by `done == nil`), and reading
/// a `nil` gives the type's zero: `false`, `0`, `""`, empty `Data`, `Decimal` 0, or the
/// reference date (a `TimeInterval` of 0), or the declared default for a type without one
/// (such as an enum with no zero raw value).
///
/// For example:
/// ```swift
/// final class Fruit: ManagedObject {
///     @Attribute(indexed: true) var name = ""
///     @Attribute var price: Int64 = 0
///     @Attribute var pickedAt: Date?
///     @Attribute var sku: String          // required: set it before saving
///     @Attribute(optional: true) var isOrganic = false   // optional in the store; nil reads false
/// }
/// ```
///
/// Reading a required attribute that has no value yet (never set, or set to `nil` through
/// ``ManagedObject/setValue(_:forKey:)``) is a programmer error that stops the program with a
/// message: the property's type has no value to return. ``ManagedObject/value(forKey:)`` returns
/// `nil` instead, and a save refuses the missing value (before the object's validation methods
/// run) with a `validation` error. See "Programmer errors" in Docs/Validation.md.
///
/// Core Data: an `@NSManaged` property backed by an `NSAttributeDescription`.
@propertyWrapper
public struct Attribute<Value: AttributeValue> {
    /// This instance's slot in the object's values, resolved on first access (a slot above
    /// ``WrapperSlot/largestCached`` on every access). The wrapper stores nothing else (one
    /// byte): the declaration's options are read once, when the entity is derived from the
    /// class, so that objects stay small.
    @usableFromInline var slot = WrapperSlot()

    /// Declares an attribute whose default is the initial value, evaluated once for each new
    /// object (so `= UUID()` gives every object its own).
    ///
    /// `minimum`, `maximum` (numbers, dates), `length` (characters of a string, bytes of data) and
    /// `pattern` (a regular expression the whole string must match) are checked at save.
    /// `optional: true` makes the attribute optional in the store though `Value` is not.
    @inlinable
    public init(
        wrappedValue: @autoclosure @escaping @Sendable () -> Value, optional: Bool = false, indexed: Bool = false,
        renamingIdentifier: String? = nil, minimum: Value? = nil, maximum: Value? = nil,
        length: ClosedRange<Int>? = nil, pattern: String? = nil
    ) {
        if PropertyDeclarations.mayBeRecording {
            Self.recordDeclaration(
                initialValueOf: wrappedValue, optional: optional, indexed: indexed,
                renamingIdentifier: renamingIdentifier, minimum: minimum, maximum: maximum, length: length,
                pattern: pattern)
        }
    }

    /// Declares an attribute without a default (`nil` for an optional type), with the same rules.
    @inlinable
    public init(
        optional: Bool = false, indexed: Bool = false, renamingIdentifier: String? = nil, minimum: Value? = nil,
        maximum: Value? = nil, length: ClosedRange<Int>? = nil, pattern: String? = nil
    ) {
        if PropertyDeclarations.mayBeRecording {
            Self.recordDeclaration(
                initialValue: nil, optional: optional, indexed: indexed, renamingIdentifier: renamingIdentifier,
                minimum: minimum, maximum: maximum, length: length, pattern: pattern)
        }
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
            let slot: Int
            if let known = object[keyPath: storageKeyPath].slot.known {
                slot = known
            } else {
                slot = object.resolveWrapperSlot(storageKeyPath)
                object[keyPath: storageKeyPath].slot.cache(slot)
            }
            object.observationAccess(slot)
            guard
                let value = Value(storeValue: object.values[slot]) ?? object.scalarValue(forNilAt: slot, as: Value.self)
            else {
                preconditionFailure(object.unreadableValueMessage(at: slot, as: Value.self))
            }
            return value
        }
        set {
            let slot: Int
            if let known = object[keyPath: storageKeyPath].slot.known {
                slot = known
            } else {
                slot = object.resolveWrapperSlot(storageKeyPath)
                object[keyPath: storageKeyPath].slot.cache(slot)
            }
            object.setStoreValue(newValue.storeValue, at: slot)
        }
    }
}

extension Attribute {
    /// ``recordDeclaration(initialValue:optional:indexed:renamingIdentifier:minimum:maximum:length:pattern:)``
    /// for an initial value. Specialized in the caller's module and never inlined, so that the
    /// initial value's closure is converted to the generic form (an allocation) only while an
    /// entity is being derived, not each time an object is created.
    @inlinable @inline(never)
    static func recordDeclaration(
        initialValueOf initialValue: @escaping @Sendable () -> Value, optional: Bool, indexed: Bool,
        renamingIdentifier: String?, minimum: Value?, maximum: Value?, length: ClosedRange<Int>?, pattern: String?
    ) {
        recordDeclaration(
            initialValue: initialValue, optional: optional, indexed: indexed, renamingIdentifier: renamingIdentifier,
            minimum: minimum, maximum: maximum, length: length, pattern: pattern)
    }

    /// Hands the declaration to the recorder of a derivation running on this thread, if any.
    @usableFromInline
    static func recordDeclaration(
        initialValue: (@Sendable () -> Value)?, optional: Bool, indexed: Bool, renamingIdentifier: String?,
        minimum: Value?, maximum: Value?, length: ClosedRange<Int>?, pattern: String?
    ) {
        let validation = AttributeValidation(
            minimum: minimum?.storeValue, maximum: maximum?.storeValue, length: length, pattern: pattern)
        PropertyDeclarations.record(Self.self) { name in
            let description = AttributeDescription(
                name: name, type: Value.attributeType, isOptional: Value.isOptionalType || optional,
                defaultValue: initialValue?().storeValue ?? .null, isIndexed: indexed,
                renamingIdentifier: renamingIdentifier, validation: validation)
            guard let initialValue else { return .attribute(description, initialValue: nil) }
            return .attribute(description, initialValue: { initialValue().storeValue })
        }
    }
}

extension Attribute: DerivableProperty {
    @usableFromInline var cachedSlot: Int { slot.cached }

    @usableFromInline mutating func cacheSlot(_ slot: Int) { self.slot.cache(slot) }

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
