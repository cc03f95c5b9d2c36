/// One relationship of an entity: its destination entity, inverse, cardinality and delete rule.
///
/// For example:
/// ```swift
/// RelationshipDescription(name: "fruits", destination: "Fruit", inverse: "basket",
///                         isToMany: true, deleteRule: .cascade)
/// ```
///
/// Core Data: `NSRelationshipDescription`.
public struct RelationshipDescription: Sendable, Hashable {
    /// The key used with `value(forKey:)`.
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination entity, if any.
    public var inverse: String?
    /// Whether the relationship holds many objects.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool
    /// Whether the relationship may be empty at save.
    public var isOptional: Bool
    /// What happens to the destination when the source is deleted.
    public var deleteRule: DeleteRule
    /// The fewest objects a to-many relationship may hold at save (0 for no limit).
    public var minCount: Int
    /// The most objects a to-many relationship may hold at save (0 for no limit).
    public var maxCount: Int
    /// The relationship's name in the previous model version, when it was renamed (migration maps
    /// the old name's data to this relationship).
    ///
    /// Core Data: `NSPropertyDescription.renamingIdentifier`.
    public var renamingIdentifier: String?

    /// Creates a relationship description.
    public init(
        name: String,
        destination: String,
        inverse: String?,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        deleteRule: DeleteRule = .nullify,
        minCount: Int = 0,
        maxCount: Int = 0,
        renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.renamingIdentifier = renamingIdentifier
    }
}
