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
    public var name: String {
        get { storage.fields.name }
        set { update { $0.name = newValue } }
    }
    /// The attributes, in storage order.
    public var attributes: [AttributeDescription] {
        get { storage.fields.attributes }
        set { update { $0.attributes = newValue } }
    }
    /// The relationships, in storage order (after the attributes).
    public var relationships: [RelationshipDescription] {
        get { storage.fields.relationships }
        set { update { $0.relationships = newValue } }
    }
    /// Sets of attribute names whose combined values must be unique among the entity's objects.
    public var uniquenessConstraints: [[String]] {
        get { storage.fields.uniquenessConstraints }
        set { update { $0.uniquenessConstraints = newValue } }
    }
    /// The fetch indexes of the entity (compound or single-attribute), beside the attributes
    /// marked ``AttributeDescription/isIndexed``.
    ///
    /// Core Data: `NSEntityDescription.indexes`.
    public var indexes: [FetchIndexDescription] {
        get { storage.fields.indexes }
        set { update { $0.indexes = newValue } }
    }
    /// The name of the entity this one inherits from, if any: its objects have every property of
    /// the parent (first, in the parent's order) and are among the parent's fetch results.
    ///
    /// Core Data: `NSEntityDescription.superentity`.
    public var superentityName: String? {
        get { storage.fields.superentityName }
        set { update { $0.superentityName = newValue } }
    }
    /// Whether the entity only exists to be inherited from: it has no objects of its own.
    ///
    /// Core Data: `NSEntityDescription.isAbstract`.
    public var isAbstract: Bool {
        get { storage.fields.isAbstract }
        set { update { $0.isAbstract = newValue } }
    }
    /// The entity's name in the previous model version, when it was renamed (migration maps the
    /// old entity's objects to this one).
    ///
    /// Core Data: `NSEntityDescription.renamingIdentifier`.
    public var renamingIdentifier: String? {
        get { storage.fields.renamingIdentifier }
        set { update { $0.renamingIdentifier = newValue } }
    }
    /// The class of the entity's objects, set by the object layer (`managedObjectClass`);
    /// `nil` for the base class.
    var objectClass: AnyClass? {
        get { storage.fields.objectClass }
        set { update { $0.objectClass = newValue } }
    }
    /// The compiled entity this description was handed out for, so that objects can be created
    /// from it without a lookup. Never set on the descriptions a model stores (no cycles).
    var boundInfo: EntityInfo? {
        get { storage.fields.boundInfo }
        set { update { $0.boundInfo = newValue } }
    }
    /// With `boundInfo`: the object is being read from the store, so skip initial values.
    var isMaterializing: Bool {
        get { storage.fields.isMaterializing }
        set { update { $0.isMaterializing = newValue } }
    }
    /// This description bound to `info` for objects read from the store (`boundInfo` and
    /// `isMaterializing` set in one copy of the storage).
    func materializing(boundTo info: EntityInfo) -> EntityDescription {
        var bound = self
        bound.update {
            $0.boundInfo = info
            $0.isMaterializing = true
        }
        return bound
    }
    /// Per-object initial values of a typed subclass's attributes, evaluated for each new object.
    var initialValues: [InitialValue] {
        get { storage.fields.initialValues }
        set { update { $0.initialValues = newValue } }
    }
    /// How many of `attributes` and `relationships` (the first ones) a model copied from the
    /// superentity when it flattened the hierarchy (see `EntityDescription+Inheritance.swift`).
    var inheritedPropertyCounts: (attributes: Int, relationships: Int) {
        get { storage.fields.inheritedPropertyCounts }
        set { update { $0.inheritedPropertyCounts = newValue } }
    }
    /// The model's entity hierarchy, on the descriptions a model with inheritance hands out.
    var hierarchy: EntityHierarchy? {
        get { storage.fields.hierarchy }
        set { update { $0.hierarchy = newValue } }
    }

    /// The stored properties, behind one immutable reference: a description is handed to the
    /// initializer of every object created or fetched, and copying it then costs one retain
    /// rather than one for each array and string it holds.
    private var storage: Storage

    private struct Fields: Sendable {
        var name: String
        var attributes: [AttributeDescription]
        var relationships: [RelationshipDescription]
        var uniquenessConstraints: [[String]]
        var indexes: [FetchIndexDescription] = []
        var superentityName: String?
        var isAbstract = false
        var renamingIdentifier: String?
        var objectClass: AnyClass?
        var boundInfo: EntityInfo?
        var isMaterializing = false
        var initialValues: [InitialValue] = []
        var inheritedPropertyCounts = (attributes: 0, relationships: 0)
        var hierarchy: EntityHierarchy?
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    /// Changes the stored properties (copied into new storage: descriptions change only while a
    /// model is built).
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// A typed attribute's initial value, made anew for each new object.
    struct InitialValue: Sendable {
        let slot: Int
        let make: @Sendable () -> StoreValue
    }

    /// Creates an entity description whose objects are of `objectClass` (`nil`: the base class).
    init(
        name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription],
        uniquenessConstraints: [[String]], objectClass: AnyClass?
    ) {
        storage = Storage(
            Fields(
                name: name, attributes: attributes, relationships: relationships,
                uniquenessConstraints: uniquenessConstraints, objectClass: objectClass))
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
            && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.superentityName == rhs.superentityName
            && lhs.isAbstract == rhs.isAbstract && lhs.renamingIdentifier == rhs.renamingIdentifier
            && lhs.indexes == rhs.indexes
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(attributes)
        hasher.combine(relationships)
    }
}
