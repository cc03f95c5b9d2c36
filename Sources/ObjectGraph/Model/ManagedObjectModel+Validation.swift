import Foundation

extension ManagedObjectModel {
    static func validate(_ entities: [EntityDescription]) throws {
        var byName: [String: EntityDescription] = [:]
        var classes: [ObjectIdentifier: String] = [:]
        for entity in entities {
            guard !entity.name.isEmpty else {
                throw PersistenceError.invalidModel("An entity has an empty name. Give every entity a name.")
            }
            guard byName.updateValue(entity, forKey: entity.name) == nil else {
                throw PersistenceError.invalidModel(
                    "The model has two entities named '\(entity.name)'. Entity names must be unique.",
                    entity: entity.name)
            }
            if let objectClass = entity.objectClass {
                let id = ObjectIdentifier(objectClass)
                if let other = classes.updateValue(entity.name, forKey: id) {
                    throw PersistenceError.invalidModel(
                        "Entities '\(other)' and '\(entity.name)' use the same class "
                            + "\(objectClass). Give each entity its own class.",
                        entity: entity.name)
                }
            }
            try validateProperties(of: entity)
        }
        for entity in entities {
            for relationship in entity.relationships {
                try validate(relationship, of: entity, in: byName)
            }
        }
    }

    private static func validateProperties(of entity: EntityDescription) throws {
        var names: Set<String> = []
        let propertyNames = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        for name in propertyNames {
            guard !name.isEmpty else {
                throw PersistenceError.invalidModel(
                    "Entity '\(entity.name)' has a property with an empty name.", entity: entity.name)
            }
            guard !name.hasPrefix("$"), !name.hasPrefix("@") else {
                throw PersistenceError.invalidModel(
                    "Entity '\(entity.name)' has a property named '\(name)'; names starting with '$' or '@' are "
                        + "reserved (for store metadata and predicate syntax). Rename it.",
                    entity: entity.name, key: name)
            }
            guard names.insert(name).inserted else {
                throw PersistenceError.invalidModel(
                    "Entity '\(entity.name)' has two properties named '\(name)'. Property names must be unique.",
                    entity: entity.name, key: name)
            }
        }
        for attribute in entity.attributes where !attribute.defaultValue.isNull {
            guard attribute.type.accepts(attribute.defaultValue) else {
                throw PersistenceError.invalidModel(
                    "The default value of '\(entity.name).\(attribute.name)' is a \(attribute.defaultValue.kindName), "
                        + "not a value of type \(attribute.type). Give a default of the attribute's type.",
                    entity: entity.name, key: attribute.name)
            }
        }
        for attribute in entity.attributes { try validateRules(of: attribute, in: entity) }
        try validateIndexes(of: entity)
        let attributeNames = Set(entity.attributes.map(\.name))
        for constraint in entity.uniquenessConstraints {
            guard !constraint.isEmpty else {
                throw PersistenceError.invalidModel(
                    "Entity '\(entity.name)' has an empty uniqueness constraint.", entity: entity.name)
            }
            for name in constraint where !attributeNames.contains(name) {
                throw PersistenceError.invalidModel(
                    "A uniqueness constraint of '\(entity.name)' names '\(name)', which is not one of its attributes.",
                    entity: entity.name, key: name)
            }
        }
    }

    private static func validateRules(of attribute: AttributeDescription, in entity: EntityDescription) throws {
        let rules = attribute.validation
        let label = "'\(entity.name).\(attribute.name)'"
        func invalid(_ reason: String) -> PersistenceError {
            .invalidModel("The validation of \(label) \(reason).", entity: entity.name, key: attribute.name)
        }
        let ordered: Set<AttributeType> = [.integer16, .integer32, .integer64, .float, .double, .decimal, .date]
        for bound in [rules.minimum, rules.maximum].compactMap({ $0 }) {
            guard ordered.contains(attribute.type) else {
                throw invalid("has a minimum or maximum, but \(attribute.type) values are not ordered")
            }
            guard attribute.type.accepts(bound) else {
                throw invalid("has a bound that is a \(bound.kindName), not a \(attribute.type)")
            }
        }
        if let minimum = rules.minimum, let maximum = rules.maximum,
            StoreValue.compare(minimum, maximum) == .orderedDescending
        {
            throw invalid("has a minimum above its maximum")
        }
        if let length = rules.length {
            guard [.string, .binary].contains(attribute.type) else {
                throw invalid("has a length, but only strings and binary data have one")
            }
            guard length.lowerBound >= 0 else { throw invalid("has a negative length") }
        }
        if let pattern = rules.pattern {
            guard attribute.type == .string else { throw invalid("has a pattern, but only strings can match one") }
            guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                throw invalid("has a pattern that is not a valid regular expression")
            }
        }
    }

    private static func validate(
        _ relationship: RelationshipDescription, of entity: EntityDescription,
        in byName: [String: EntityDescription]
    ) throws {
        let label = "\(entity.name).\(relationship.name)"
        guard let destination = byName[relationship.destination] else {
            throw PersistenceError.invalidModel(
                "Relationship '\(label)' points to entity '\(relationship.destination)', which is not in the model. "
                    + "Add that entity to the model or fix the destination name.",
                entity: entity.name, key: relationship.name)
        }
        if relationship.isOrdered && !relationship.isToMany {
            throw PersistenceError.invalidModel(
                "Relationship '\(label)' is ordered but to-one. Only to-many relationships can be ordered.",
                entity: entity.name, key: relationship.name)
        }
        if relationship.minCount < 0 || relationship.maxCount < 0
            || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount)
        {
            throw PersistenceError.invalidModel(
                "Relationship '\(label)' has the count range \(relationship.minCount)...\(relationship.maxCount). "
                    + "Use non-negative counts with the minimum not above the maximum (0 means no limit).",
                entity: entity.name, key: relationship.name)
        }
        guard let inverseName = relationship.inverse else { return }
        guard let inverse = destination.relationships.first(where: { $0.name == inverseName }) else {
            throw PersistenceError.invalidModel(
                "Relationship '\(label)' names the inverse '\(destination.name).\(inverseName)', which does not "
                    + "exist. Add that relationship to '\(destination.name)' or fix the inverse name.",
                entity: entity.name, key: relationship.name)
        }
        // An inherited relationship's inverse points at the superentity that declares it.
        guard
            inverse.destination == entity.name
                || Self.entity(named: entity.name, isKindOf: inverse.destination, in: byName),
            inverse.inverse == relationship.name
        else {
            throw PersistenceError.invalidModel(
                "Relationship '\(label)' and its inverse '\(destination.name).\(inverseName)' do not point at each "
                    + "other: the inverse's destination is '\(inverse.destination)' and its inverse is "
                    + "'\(inverse.inverse ?? "nil")'. Make each name the other as its inverse.",
                entity: entity.name, key: relationship.name)
        }
    }
}
