/// One entity of a model: its name, attributes, relationships and uniqueness constraints.
///
/// Build entities by hand for untyped use, or let ``ManagedObjectModel/init(_:)`` derive them
/// from `ManagedObject` subclasses.
///
/// For example:
/// ```swift
/// let person = EntityDescription(
///     name: "Person",
///     attributes: [AttributeDescription(name: "email", type: .string)],
///     uniquenessConstraints: [["email"]])
/// ```
///
/// Core Data: `NSEntityDescription`.
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name, unique in its model.
    public var name: String
    /// The attributes, in storage order.
    public var attributes: [AttributeDescription]
    /// The relationships, in storage order (after the attributes).
    public var relationships: [RelationshipDescription]
    /// Sets of attribute names whose combined values must be unique among the entity's objects.
    public var uniquenessConstraints: [[String]]
    /// The `ManagedObject` subclass that represents the entity's objects.
    public var managedObjectClass: ManagedObject.Type
    /// The compiled entity this description was handed out for, so that objects can be created
    /// from it without a lookup. Never set on the descriptions a model stores (no cycles).
    var boundInfo: EntityInfo?
    /// With `boundInfo`: the object is being read from the store, so skip initial values.
    var isMaterializing = false
    /// Per-object initial values of a typed subclass's attributes, evaluated for each new object.
    var initialValues: [InitialValue] = []

    /// A typed attribute's initial value, made anew for each new object.
    struct InitialValue: Sendable {
        let slot: Int
        let make: @Sendable () -> StoreValue
    }

    /// Creates an entity description.
    public init(
        name: String,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [],
        managedObjectClass: ManagedObject.Type = ManagedObject.self
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.managedObjectClass = managedObjectClass
    }

    /// The attributes by name.
    public var attributesByName: [String: AttributeDescription] {
        Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The relationships by name.
    public var relationshipsByName: [String: RelationshipDescription] {
        Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Compares the stored schema (names, types, options, relationships, constraints), not the class.
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
            && lhs.uniquenessConstraints == rhs.uniquenessConstraints
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(attributes)
        hasher.combine(relationships)
    }
}
