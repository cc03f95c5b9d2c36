enum DerivedProperty {
    case attribute(AttributeDescription, initialValue: (@Sendable () -> StoreValue)?)
    case relationship(RelationshipDescription)
}
