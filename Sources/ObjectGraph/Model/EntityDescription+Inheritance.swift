extension EntityDescription {
    /// The entity this one inherits from, as the model has it; `nil` for a root entity, and for a
    /// description that was not handed out by a model (read ``superentityName`` there).
    ///
    /// Descriptions are values: the superentity is a copy, whose own ``subentities`` include
    /// this entity.
    ///
    /// Core Data: `NSEntityDescription.superentity`.
    public var superentity: EntityDescription? {
        superentityName.flatMap { hierarchy?.entity(named: $0) }
    }

    /// The entities that inherit directly from this one, in model order; empty for a leaf entity
    /// and for a description that was not handed out by a model.
    ///
    /// Core Data: `NSEntityDescription.subentities`.
    public var subentities: [EntityDescription] {
        hierarchy?.subentities(of: name) ?? []
    }

    /// Whether this entity is `entity` or inherits from it (directly or through other entities),
    /// that is, whether its objects are among the objects of `entity` that a fetch returns.
    ///
    /// For example:
    /// ```swift
    /// model.entity(named: "Dog")!.isKindOf(entity: model.entity(named: "Animal")!)   // true
    /// ```
    ///
    /// Core Data: `NSEntityDescription.isKindOf(entity:)`.
    public func isKindOf(entity: EntityDescription) -> Bool {
        if name == entity.name { return true }
        var ancestor = superentityName
        var steps = 0
        // A model has no cycles; the bound keeps a hand-made description from looping.
        while let current = ancestor, steps < 10_000 {
            if current == entity.name { return true }
            ancestor = hierarchy?.entity(named: current)?.superentityName
            steps += 1
        }
        return false
    }

    /// The properties this entity declares itself, without those it inherits (the inherited
    /// ones come first in ``attributes`` and ``relationships`` of a model's description).
    var ownProperties:
        (attributes: ArraySlice<AttributeDescription>, relationships: ArraySlice<RelationshipDescription>)
    {
        let counts = inheritedPropertyCounts
        return (
            attributes.dropFirst(min(counts.attributes, attributes.count)),
            relationships.dropFirst(min(counts.relationships, relationships.count))
        )
    }
}
