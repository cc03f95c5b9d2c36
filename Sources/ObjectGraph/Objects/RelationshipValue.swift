/// A Swift type that can be the value of a `@Relationship` property: `Destination?`,
/// `Set<Destination>` or `[Destination]` for a `ManagedObject` subclass `Destination`.
public protocol RelationshipValue {
    /// The class of the destination entity.
    static var destination: ManagedObject.Type { get }
    /// Whether the relationship holds many objects.
    static var isToMany: Bool { get }
    /// Whether a to-many relationship keeps its objects in order.
    static var isOrdered: Bool { get }
    /// Creates the value from the related objects, which must be of the destination class (a
    /// programmer error that stops the program otherwise).
    init(relatedObjects: [ManagedObject])
    /// The related objects.
    var relatedObjects: [ManagedObject] { get }
    /// The object a to-one value names (`nil` for none), read without building an array.
    var toOneObject: ManagedObject? { get }
}

extension RelationshipValue {
    /// The first of ``relatedObjects``.
    public var toOneObject: ManagedObject? { relatedObjects.first }
}
