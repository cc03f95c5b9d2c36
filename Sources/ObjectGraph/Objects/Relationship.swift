/// Declares a relationship on a `ManagedObject` subclass.
///
/// The Swift type picks the kind: `Destination?` is to-one, `Set<Destination>` is to-many, and
/// `[Destination]` is ordered to-many. Setting one side keeps the inverse side current.
///
/// For example:
/// ```swift
/// final class Basket: ManagedObject {
///     @Relationship(inverse: "basket", deleteRule: .cascade) var fruits: Set<Fruit>
/// }
/// final class Fruit: ManagedObject {
///     @Relationship(inverse: "fruits") var basket: Basket?
/// }
/// ```
///
/// Setting an object of another context, or a detached one, or setting a relationship of a
/// detached object, is a programmer error that stops the program (Core Data raises "Illegal
/// attempt to establish a relationship between objects in different contexts"): a property
/// setter cannot throw. ``ManagedObject/setValue(_:forKey:)`` throws `typeMismatch` instead.
///
/// Core Data: an `@NSManaged` property backed by an `NSRelationshipDescription`.
@propertyWrapper
public struct Relationship<Value: RelationshipValue> {
    /// This instance's slot in the object's values, resolved on first access (a slot above
    /// ``WrapperSlot/largestCached`` on every access). The wrapper stores nothing else (one
    /// byte): the declaration's options are read once, when the entity is derived from the
    /// class, so that objects stay small.
    @usableFromInline var slot = WrapperSlot()

    /// Declares a relationship with the given inverse (`nil` for none); `renamingIdentifier` is
    /// its name in the previous model version, when it was renamed (for migration).
    @inlinable
    public init(
        inverse: String?, deleteRule: DeleteRule = .nullify, isOptional: Bool = true, minCount: Int = 0,
        maxCount: Int = 0, renamingIdentifier: String? = nil
    ) {
        if PropertyDeclarations.mayBeRecording {
            Self.recordDeclaration(
                inverse: inverse, deleteRule: deleteRule, isOptional: isOptional, minCount: minCount,
                maxCount: maxCount, renamingIdentifier: renamingIdentifier)
        }
    }

    /// Declares a relationship with an initial value, which must be empty (`nil` or `[]`); a
    /// non-empty one is a programmer error that stops the program.
    public init(
        wrappedValue: Value, inverse: String?, deleteRule: DeleteRule = .nullify, isOptional: Bool = true,
        minCount: Int = 0, maxCount: Int = 0, renamingIdentifier: String? = nil
    ) {
        precondition(wrappedValue.relatedObjects.isEmpty, "A relationship's initial value must be empty.")
        self.init(
            inverse: inverse, deleteRule: deleteRule, isOptional: isOptional, minCount: minCount, maxCount: maxCount,
            renamingIdentifier: renamingIdentifier)
    }

    @available(*, unavailable, message: "@Relationship can only be used on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the relationship through the enclosing object's values.
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
            return Value(relatedObjects: object.relatedObjects(object.values[slot]))
        }
        set {
            let slot: Int
            if let known = object[keyPath: storageKeyPath].slot.known {
                slot = known
            } else {
                slot = object.resolveWrapperSlot(storageKeyPath)
                object[keyPath: storageKeyPath].slot.cache(slot)
            }
            if !Value.isToMany {
                object.replaceToOneRelationship(at: slot, with: newValue.toOneObject)
            } else {
                object.replaceRelationship(at: slot, with: newValue.relatedObjects)
            }
        }
    }
}

extension Relationship {
    /// Hands the declaration to the recorder of a derivation running on this thread, if any.
    @usableFromInline
    static func recordDeclaration(
        inverse: String?, deleteRule: DeleteRule, isOptional: Bool, minCount: Int, maxCount: Int,
        renamingIdentifier: String? = nil
    ) {
        PropertyDeclarations.record(Self.self) { name in
            .relationship(
                RelationshipDescription(
                    name: name, destination: Value.destination.entityName, inverse: inverse,
                    isToMany: Value.isToMany, isOrdered: Value.isOrdered, isOptional: isOptional && minCount == 0,
                    deleteRule: deleteRule, minCount: minCount, maxCount: maxCount,
                    renamingIdentifier: renamingIdentifier))
        }
    }
}

extension Relationship: DerivableProperty {
    @usableFromInline var cachedSlot: Int { slot.cached }

    @usableFromInline mutating func cacheSlot(_ slot: Int) { self.slot.cache(slot) }

    var valueType: Any.Type { Value.self }

    func readableValue(from value: StoreValue) -> StoreValue? { value }
}

extension Optional: RelationshipValue where Wrapped: ManagedObject {
    /// The class of the related objects.
    public static var destination: ManagedObject.Type { Wrapped.self }
    /// `false`: an optional holds at most one object.
    public static var isToMany: Bool { false }
    /// `false`: the objects have no order of their own.
    public static var isOrdered: Bool { false }
    /// Creates the value from the related objects.
    public init(relatedObjects: [ManagedObject]) { self = relatedObjects.first.map { $0 as! Wrapped } }
    /// The related objects.
    public var relatedObjects: [ManagedObject] { self.map { [$0] } ?? [] }
    /// The object itself: no array, no cast.
    public var toOneObject: ManagedObject? { self }
}

extension Set: RelationshipValue where Element: ManagedObject {
    /// The class of the related objects.
    public static var destination: ManagedObject.Type { Element.self }
    /// `true`: the collection holds many objects.
    public static var isToMany: Bool { true }
    /// `false`: the objects have no order of their own.
    public static var isOrdered: Bool { false }
    /// Creates the value from the related objects.
    public init(relatedObjects: [ManagedObject]) { self.init(relatedObjects.map { $0 as! Element }) }
    /// The related objects.
    public var relatedObjects: [ManagedObject] { sorted { $0.objectID < $1.objectID } }
}

extension Array: RelationshipValue where Element: ManagedObject {
    /// The class of the related objects.
    public static var destination: ManagedObject.Type { Element.self }
    /// `true`: the collection holds many objects.
    public static var isToMany: Bool { true }
    /// `true`: an array keeps its objects in order.
    public static var isOrdered: Bool { true }
    /// Creates the value from the related objects.
    public init(relatedObjects: [ManagedObject]) { self = relatedObjects.map { $0 as! Element } }
    /// The related objects.
    public var relatedObjects: [ManagedObject] { self }
}
