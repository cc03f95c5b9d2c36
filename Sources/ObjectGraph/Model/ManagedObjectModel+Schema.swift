extension ManagedObjectModel {
    /// What differs between this model's schema and `other`'s, one readable line per difference;
    /// empty when a store written with `other` can be read with this model as it is.
    ///
    /// Entity order and the classes that represent entities do not matter.
    public func schemaDifferences(from other: ManagedObjectModel) -> [String] {
        Self.schemaDifferences(from: other.entities, to: entities)
    }

    static func schemaDifferences(from old: [EntityDescription], to new: [EntityDescription]) -> [String] {
        var differences: [String] = []
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newByName = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in old where newByName[entity.name] == nil {
            differences.append("entity '\(entity.name)' is in the store but not in the model")
        }
        for entity in new {
            guard let stored = oldByName[entity.name] else {
                differences.append("entity '\(entity.name)' is in the model but not in the store")
                continue
            }
            differences += attributeDifferences(entity.name, stored.attributes, entity.attributes)
            differences += relationshipDifferences(entity.name, stored.relationships, entity.relationships)
            differences += hierarchyDifferences(entity.name, stored, entity)
        }
        return differences
    }

    // Only what decides how stored data reads counts; defaults, indexes, delete rules and
    // renaming identifiers can change without touching the data.
    private static func describe(_ attribute: AttributeDescription) -> String {
        "\(attribute.type)\(attribute.isOptional ? ", optional" : ", required")"
    }

    private static func describe(_ relationship: RelationshipDescription) -> String {
        let kind = relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        return "\(kind) \(relationship.destination), inverse \(relationship.inverse ?? "none")"
    }

    private static func attributeDifferences(
        _ entity: String, _ old: [AttributeDescription], _ new: [AttributeDescription]
    ) -> [String] {
        // By name, so that comparing n properties costs O(n), not O(n²) (a stored schema is input).
        let newNames = Set(new.map(\.name))
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [String] = []
        for attribute in old where !newNames.contains(attribute.name) {
            differences.append("attribute '\(entity).\(attribute.name)' is in the store but not in the model")
        }
        for attribute in new {
            guard let stored = oldByName[attribute.name] else {
                differences.append("attribute '\(entity).\(attribute.name)' is in the model but not in the store")
                continue
            }
            if describe(stored) != describe(attribute) {
                differences.append(
                    "attribute '\(entity).\(attribute.name)' is \(describe(attribute)) in the model "
                        + "but \(describe(stored)) in the store")
            }
        }
        if old.map(\.name) != new.map(\.name) && Set(old.map(\.name)) == newNames {
            differences.append("the attributes of '\(entity)' are in a different order in the model and the store")
        }
        return differences
    }

    private static func relationshipDifferences(
        _ entity: String, _ old: [RelationshipDescription], _ new: [RelationshipDescription]
    ) -> [String] {
        // By name, so that comparing n properties costs O(n), not O(n²) (a stored schema is input).
        let newNames = Set(new.map(\.name))
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [String] = []
        for relationship in old where !newNames.contains(relationship.name) {
            differences.append("relationship '\(entity).\(relationship.name)' is in the store but not in the model")
        }
        for relationship in new {
            guard let stored = oldByName[relationship.name] else {
                differences.append("relationship '\(entity).\(relationship.name)' is in the model but not in the store")
                continue
            }
            if describe(stored) != describe(relationship) {
                differences.append(
                    "relationship '\(entity).\(relationship.name)' is \(describe(relationship)) in the model "
                        + "but \(describe(stored)) in the store")
            }
        }
        if old.map(\.name) != new.map(\.name) && Set(old.map(\.name)) == newNames {
            differences.append("the relationships of '\(entity)' are in a different order in the model and the store")
        }
        return differences
    }
}
