extension ManagedObjectModel {
    /// The entities with their hierarchy checked and flattened: each sub-entity gets its
    /// superentity's attributes, relationships, uniqueness constraints and initial values first,
    /// in the superentity's order, then its own. So slot *n* of a parent's property is slot *n*
    /// of every sub-entity's objects, and what is compiled against the parent reads their rows.
    ///
    /// A description handed out by a model (already flattened) counts only its own properties.
    /// Entities without a superentity are returned as they are.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for an unknown superentity, a cycle, or a
    ///   property that a sub-entity declares and also inherits.
    static func flattenHierarchy(_ entities: [EntityDescription]) throws -> [EntityDescription] {
        guard entities.contains(where: { $0.superentityName != nil }) else { return entities }
        // Duplicate names are reported by `validate`; the first of a name counts here.
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            try checkAncestry(of: entity, in: byName)
        }
        var flattened: [String: EntityDescription] = [:]
        func flatten(_ entity: EntityDescription) throws -> EntityDescription {
            if let done = flattened[entity.name] { return done }
            guard let parentName = entity.superentityName, let parentEntity = byName[parentName] else {
                var root = entity
                root.inheritedPropertyCounts = (0, 0)
                flattened[entity.name] = root
                return root
            }
            let parent = try flatten(parentEntity)
            let result = try inherit(entity, from: parent)
            flattened[entity.name] = result
            return result
        }
        return try entities.map(flatten)
    }

    /// Checks that the superentity chain of `entity` ends at a root entity of the model.
    private static func checkAncestry(of entity: EntityDescription, in byName: [String: EntityDescription]) throws {
        var visited: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.superentityName {
            guard let parent = byName[parentName] else {
                throw PersistenceError.invalidModel(
                    "Entity '\(current.name)' names the superentity '\(parentName)', which is not in the model. "
                        + "Add that entity to the model or fix the superentity name.",
                    entity: current.name)
            }
            guard visited.insert(parentName).inserted else {
                throw PersistenceError.invalidModel(
                    "The superentities of '\(entity.name)' form a cycle through '\(parentName)'. An entity cannot "
                        + "inherit from itself or from its own sub-entities; remove one superentity of the cycle.",
                    entity: entity.name)
            }
            current = parent
        }
    }

    /// `entity` with the flattened `parent`'s properties, constraints and initial values first.
    private static func inherit(_ entity: EntityDescription, from parent: EntityDescription) throws
        -> EntityDescription
    {
        let own = ownProperties(of: entity, inheritingFrom: parent)
        let inherited = Set(parent.attributes.map(\.name) + parent.relationships.map(\.name))
        for name in own.attributes.map(\.name) + own.relationships.map(\.name) where inherited.contains(name) {
            throw PersistenceError.invalidModel(
                "Entity '\(entity.name)' declares the property '\(name)', which it inherits from '\(parent.name)'. "
                    + "A sub-entity cannot redeclare an inherited property; rename or remove one of them.",
                entity: entity.name, key: name)
        }
        var result = entity
        result.attributes = parent.attributes + own.attributes
        result.relationships = parent.relationships + own.relationships
        result.uniquenessConstraints =
            parent.uniquenessConstraints
            + entity.uniquenessConstraints.filter { !parent.uniquenessConstraints.contains($0) }
        let shift = parent.attributes.count
        let ownInitialValues = entity.initialValues.compactMap { value -> EntityDescription.InitialValue? in
            let slot = value.slot - (entity.attributes.count - own.attributes.count)
            return slot >= 0 ? EntityDescription.InitialValue(slot: slot + shift, make: value.make) : nil
        }
        result.initialValues = parent.initialValues + ownInitialValues
        result.inheritedPropertyCounts = (parent.attributes.count, parent.relationships.count)
        return result
    }

    /// The properties `entity` declares itself: all of them, unless it is a model's flattened
    /// description whose inherited prefix is still exactly `parent`'s properties.
    private static func ownProperties(of entity: EntityDescription, inheritingFrom parent: EntityDescription)
        -> (attributes: [AttributeDescription], relationships: [RelationshipDescription])
    {
        let own = entity.ownProperties
        let counts = entity.inheritedPropertyCounts
        let keepsPrefix =
            counts.attributes == parent.attributes.count && counts.relationships == parent.relationships.count
            && entity.attributes.prefix(counts.attributes).map(\.name) == parent.attributes.map(\.name)
            && entity.relationships.prefix(counts.relationships).map(\.name) == parent.relationships.map(\.name)
        guard keepsPrefix, counts != (0, 0) else { return (entity.attributes, entity.relationships) }
        return (Array(own.attributes), Array(own.relationships))
    }

    /// Whether the entity named `name` is `ancestor` or inherits from it, among `entities` by name.
    static func entity(
        named name: String, isKindOf ancestor: String, in byName: [String: EntityDescription]
    ) -> Bool {
        var current: String? = name
        var steps = 0
        while let entity = current, steps <= byName.count {
            if entity == ancestor { return true }
            current = byName[entity]?.superentityName
            steps += 1
        }
        return false
    }
}

extension ManagedObjectModel {
    /// Each entity's lineage, by index, for validated, flattened entities.
    static func lineages(of entities: [EntityDescription]) -> [EntityInfo.Lineage] {
        guard entities.contains(where: { $0.superentityName != nil }) else {
            return Array(repeating: EntityInfo.Lineage(), count: entities.count)
        }
        let indexByName = Dictionary(
            entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var lineages = entities.map {
            EntityInfo.Lineage(superentityIndex: $0.superentityName.flatMap { indexByName[$0] })
        }
        for index in entities.indices {
            var ancestor = lineages[index].superentityIndex
            while let current = ancestor {
                lineages[current].subentityIndexes.append(index)
                lineages[current].subentityAttributeCounts[entities[index].name] = entities[index].attributes.count
                ancestor = lineages[current].superentityIndex
            }
        }
        return lineages
    }

    /// The entities referring to one shared hierarchy, when any of them has a superentity.
    static func linkHierarchy(_ entities: [EntityDescription]) -> [EntityDescription] {
        guard entities.contains(where: { $0.superentityName != nil }) else { return entities }
        let hierarchy = EntityHierarchy(entities)
        return entities.map { entity in
            var linked = entity
            linked.hierarchy = hierarchy
            return linked
        }
    }
}

extension ManagedObjectModel {
    /// The index of the entity of `target`, an object that `relationship` holds: the
    /// destination's, or the sub-entity's that the ID names when the destination has
    /// sub-entities (an unknown name counts as the destination).
    func entityIndex(of target: ObjectID, heldBy relationship: EntityInfo.ResolvedRelationship) -> Int {
        guard !relationship.destinationSubentityNames.isEmpty, target.entityName != relationship.description.destination
        else { return relationship.destinationIndex }
        return info(named: target.entityName)?.index ?? relationship.destinationIndex
    }

    /// The index of the entity the ID names, if it is `info` or one of its sub-entities; `nil`
    /// otherwise.
    func entityIndex(of target: ObjectID, in info: EntityInfo) -> Int? {
        if target.entityName == info.name { return info.index }
        guard info.hasSubentities, let other = self.info(named: target.entityName), other.isKind(of: info) else {
            return nil
        }
        return other.index
    }
}

extension ManagedObjectModel {
    /// The differences in an entity's place in the hierarchy between a stored schema and the
    /// model: a changed superentity or abstract flag (listed with the other differences; a
    /// migration maps them, see `SchemaMapping`).
    static func hierarchyDifferences(_ entity: String, _ old: EntityDescription, _ new: EntityDescription) -> [String] {
        var differences: [String] = []
        if old.superentityName != new.superentityName {
            differences.append(
                "entity '\(entity)' inherits from \(new.superentityName.map { "'\($0)'" } ?? "no entity") in the model "
                    + "but from \(old.superentityName.map { "'\($0)'" } ?? "no entity") in the store")
        }
        if old.isAbstract != new.isAbstract {
            differences.append(
                "entity '\(entity)' is \(new.isAbstract ? "abstract" : "concrete") in the model "
                    + "but \(old.isAbstract ? "abstract" : "concrete") in the store")
        }
        return differences
    }
}
