extension EntityDescription {
    /// Creates an entity description.
    public init(
        name: String,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [],
        managedObjectClass: ManagedObject.Type = ManagedObject.self
    ) {
        self.init(
            name: name, attributes: attributes, relationships: relationships,
            uniquenessConstraints: uniquenessConstraints,
            objectClass: managedObjectClass == ManagedObject.self ? nil : managedObjectClass)
    }

    /// The `ManagedObject` subclass that represents the entity's objects.
    public var managedObjectClass: ManagedObject.Type {
        get { EntityInfo.managedObjectClass(of: objectClass) }
        set { objectClass = newValue == ManagedObject.self ? nil : newValue }
    }
}
