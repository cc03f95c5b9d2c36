extension EntityInfo {
    /// An entity's place in its model's hierarchy, by entity index.
    struct Lineage: Sendable {
        /// The superentity's index; `nil` for a root entity.
        var superentityIndex: Int?
        /// Every entity that inherits from this one, directly or not, in model order.
        var subentityIndexes: [Int] = []
        /// The attribute count of each of those entities, by name.
        var subentityAttributeCounts: [String: Int] = [:]
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
    /// The slot of the inverse relationship in `target`, an object's entity that the
    /// relationship holds (its destination or one of the destination's sub-entities, whose
    /// own attributes come before the inherited relationships).
    func inverseSlot(in target: EntityInfo) -> Int? {
        guard let inverseSlot else { return nil }
        guard !destinationSubentityNames.isEmpty, target.index != destinationIndex else { return inverseSlot }
        return inverseSlot - destinationAttributeCount + target.attributeCount
    }

    func accepts(entityNamed name: String) -> Bool {
        name == description.destination
            || (!destinationSubentityNames.isEmpty && destinationSubentityNames.contains(name))
    }
}

extension EntityInfo {
    /// The entity, when it has sub-entities (so that what reads its objects' rows by slot must
    /// expect rows of sub-entities); `nil` otherwise.
    var inheritanceRoot: EntityInfo? { hasSubentities ? self : nil }

    /// The values of an object of the named sub-entity in this entity's slot layout: the
    /// inherited attributes (the same slots) and the inherited relationships (which come after
    /// the sub-entity's own attributes in its rows). Other values are returned unchanged.
    func valuesInLayout(_ values: [StoreValue], ofSubentityNamed name: String) -> [StoreValue] {
        guard let subentityAttributes = lineage.subentityAttributeCounts[name], subentityAttributes != attributeCount,
            subentityAttributes + relationships.count <= values.count
        else { return values }
        var layout = Array(values[0..<attributeCount])
        layout.append(contentsOf: values[subentityAttributes..<(subentityAttributes + relationships.count)])
        return layout
    }

    /// The slot, in an object of `target` (this entity or one of its sub-entities), of this
    /// entity's property at `slot`.
    func slot(_ slot: Int, in target: EntityInfo) -> Int {
        guard target.index != index, !isAttribute(slot) else { return slot }
        return slot - attributeCount + target.attributeCount
    }
}
