extension EntityInfo {
    /// An entity's place in its model's hierarchy, by entity index.
    struct Lineage: Sendable {
        /// The superentity's index; `nil` for a root entity.
        var superentityIndex: Int?
        /// Every entity that inherits from this one, directly or not, in model order.
        var subentityIndexes: [Int] = []
    }

    /// Whether the entity has sub-entities, whose objects a fetch of it includes.
    var hasSubentities: Bool { !lineage.subentityIndexes.isEmpty }

    /// The indexes of the entity and of every entity inheriting from it, the entity first.
    var familyIndexes: [Int] { [index] + lineage.subentityIndexes }

    /// Whether the entity is `ancestor` or inherits from it.
    func isKind(of ancestor: EntityInfo) -> Bool {
        index == ancestor.index || ancestor.lineage.subentityIndexes.contains(index)
    }
}

extension EntityInfo.ResolvedRelationship {
    /// Whether the relationship may hold an object of the named entity: its destination or one
    /// of the destination's sub-entities.
    func accepts(entityNamed name: String) -> Bool {
        name == description.destination || (!destinationSubentityNames.isEmpty && destinationSubentityNames.contains(name))
    }
}
