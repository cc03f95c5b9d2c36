extension SchemaMapping {
    /// Infers how data stored with the schema `stored` becomes data of `target`, as Core Data's
    /// lightweight migration does: entities and properties are matched by their
    /// `renamingIdentifier` (the old name) or else by name; what is new starts empty or with its
    /// default; what is gone is dropped; values widen (integers to wider integers, `Double` or
    /// `Decimal`; `Float` to `Double`); a to-one becomes a to-many and back.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` when `stored` is not a valid schema, and
    ///   `.modelMismatch` listing every change that cannot be inferred (a narrowing or
    ///   unconvertible type change, a relationship whose destination changed), each naming the
    ///   entity and property. Problems that depend on the data (a new required attribute without
    ///   a default, duplicates under a new constraint) are found when the mapping is applied.
    static func infer(from stored: [EntityDescription], to target: ManagedObjectModel) throws -> SchemaMapping {
        let source = try ManagedObjectModel(entities: stored.map(schemaOnly))
        var inference = Inference(source: source, target: target)
        inference.matchEntities()
        let mappings = target.infos.map { inference.mapEntity($0) }
        guard inference.problems.isEmpty else {
            throw PersistenceError.migrationImpossible(
                inference.problems, differences: ManagedObjectModel.schemaDifferences(from: stored, to: target.entities)
            )
        }
        return SchemaMapping(source: source, target: target, entities: mappings, changes: inference.changes)
    }
}

/// `entity` as a stored schema has it: no class, initial values or bindings.
private func schemaOnly(_ entity: EntityDescription) -> EntityDescription {
    var copy = EntityDescription(
        name: entity.name, attributes: entity.attributes, relationships: entity.relationships,
        uniquenessConstraints: entity.uniquenessConstraints, objectClass: nil)
    copy.superentityName = entity.superentityName
    copy.isAbstract = entity.isAbstract
    copy.inheritedPropertyCounts = entity.inheritedPropertyCounts
    return copy
}

/// The planner's working state: which stored entity each model entity comes from, the changes
/// found, and the problems that make the migration impossible.
private struct Inference {
    let source: ManagedObjectModel
    let target: ManagedObjectModel
    /// The stored entity of each model entity, by model name.
    var sourceOf: [String: EntityInfo] = [:]
    /// The model entity of each stored entity, by stored name.
    var targetOf: [String: String] = [:]

    /// Stored entity names that changed, to their model names (`nil` when none changed).
    var referenceRenames: [String: String]? {
        let renames = targetOf.filter { $0.key != $0.value }
        return renames.isEmpty ? nil : renames
    }
    var changes: [SchemaChange] = []
    var problems: [PersistenceError] = []

    init(source: ManagedObjectModel, target: ManagedObjectModel) {
        self.source = source
        self.target = target
    }

    mutating func matchEntities() {
        for info in target.infos {
            let entity = info.description
            let candidates = [entity.renamingIdentifier, entity.name].compactMap { $0 }
            guard let found = candidates.compactMap({ [source] in source.info(named: $0) }).first else {
                changes.append(SchemaChange(entityName: entity.name, propertyName: nil, summary: "added"))
                continue
            }
            if let other = targetOf[found.name] {
                problems.append(
                    .migrationProblem(
                        entity: entity.name, key: nil,
                        "and entity '\(other)' both take the objects of the stored entity '\(found.name)'; "
                            + "give only one of them that name or renaming identifier"))
                continue
            }
            sourceOf[entity.name] = found
            targetOf[found.name] = entity.name
            if found.description.superentityName != entity.superentityName {
                let now = entity.superentityName.map { "now inherits from '\($0)'" } ?? "no longer inherits"
                changes.append(SchemaChange(entityName: entity.name, propertyName: nil, summary: now))
            }
            if found.name != entity.name {
                changes.append(
                    SchemaChange(entityName: entity.name, propertyName: nil, summary: "renamed from '\(found.name)'"))
            }
        }
        for info in source.infos where targetOf[info.name] == nil {
            changes.append(SchemaChange(entityName: info.name, propertyName: nil, summary: "removed, with its objects"))
        }
    }

    mutating func mapEntity(_ info: EntityInfo) -> SchemaMapping.EntityMapping {
        let entity = info.description
        guard let stored = sourceOf[entity.name] else {
            let steps = (0..<info.propertyCount).map { slot in
                SchemaMapping.Step(
                    name: info.propertyName(at: slot), source: nil, conversion: .none,
                    fill: info.defaultValues[slot], isRequired: false)
            }
            return SchemaMapping.EntityMapping(
                name: entity.name, source: nil, steps: steps, isIdentity: false, newUniquenessConstraints: [])
        }
        var steps: [SchemaMapping.Step] = []
        var sourceNames: [String: String] = [:]  // model attribute name -> stored name
        for attribute in entity.attributes {
            let step = mapAttribute(attribute, of: entity.name, from: stored)
            if let slot = step.source { sourceNames[attribute.name] = stored.propertyName(at: slot) }
            steps.append(step)
        }
        for relationship in entity.relationships {
            steps.append(mapRelationship(relationship, of: entity.name, from: stored))
        }
        let used = Set(steps.compactMap(\.source))
        for slot in 0..<stored.propertyCount where !used.contains(slot) {
            let name = stored.propertyName(at: slot)
            let kind = stored.isAttribute(slot) ? "attribute" : "relationship"
            changes.append(
                SchemaChange(entityName: entity.name, propertyName: name, summary: "\(kind) removed, with its values"))
        }
        // A constraint is new unless the stored entity had the same set of (renamed) attributes.
        let storedConstraints = Set(stored.description.uniquenessConstraints.map(Set.init))
        let newConstraints = entity.uniquenessConstraints.filter { constraint in
            let names = constraint.map { sourceNames[$0] }
            guard names.allSatisfy({ $0 != nil }) else { return true }
            return !storedConstraints.contains(Set(names.compactMap { $0 }))
        }
        for constraint in newConstraints {
            changes.append(
                SchemaChange(
                    entityName: entity.name, propertyName: nil,
                    summary: "uniqueness constraint on \(constraint.joined(separator: ", ")) added"))
        }
        let isIdentity =
            stored.propertyCount == info.propertyCount && stored.name == entity.name
            && steps.enumerated().allSatisfy { slot, step in
                step.source == slot && step.conversion == .none && step.referenceRenames == nil
                    && !step.isDerivedFromInverse
                    && (!info.isAttribute(slot) || info.attribute(at: slot).isOptional
                        || !stored.attribute(at: slot).isOptional)
            }
        var mapping = SchemaMapping.EntityMapping(
            name: entity.name, source: stored.name, steps: steps, isIdentity: isIdentity,
            newUniquenessConstraints: newConstraints)
        mapping.becomesAbstract = entity.isAbstract && !stored.description.isAbstract
        return mapping
    }

    private mutating func mapAttribute(_ attribute: AttributeDescription, of entity: String, from stored: EntityInfo)
        -> SchemaMapping.Step
    {
        var step = SchemaMapping.Step(
            name: attribute.name, source: nil, conversion: .none, fill: attribute.defaultValue,
            isRequired: !attribute.isOptional)
        guard let slot = Self.slot(named: [attribute.renamingIdentifier, attribute.name], in: stored, attribute: true)
        else {
            let how = attribute.isOptional ? "optional" : "required"
            let fill = attribute.defaultValue.isNull ? "no value" : "its default value"
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: attribute.name,
                    summary: "\(how) attribute added; existing objects get \(fill)"))
            return step
        }
        step.source = slot
        let old = stored.attribute(at: slot)
        if old.name != attribute.name {
            changes.append(
                SchemaChange(entityName: entity, propertyName: attribute.name, summary: "renamed from '\(old.name)'"))
        }
        if old.isOptional && !attribute.isOptional {
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: attribute.name,
                    summary: "made required; stored nils take the default value"))
        } else if !old.isOptional && attribute.isOptional {
            changes.append(SchemaChange(entityName: entity, propertyName: attribute.name, summary: "made optional"))
        }
        guard old.type != attribute.type else { return step }
        switch Self.conversion(from: old.type, to: attribute.type) {
        case .some(let conversion):
            step.conversion = conversion
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: attribute.name,
                    summary: "widened from \(old.type) to \(attribute.type)"))
        case nil:
            let why =
                Self.isNarrowing(from: old.type, to: attribute.type)
                ? "which would narrow it: stored values might not fit"
                : "which cannot be converted"
            problems.append(
                .migrationProblem(
                    entity: entity, key: attribute.name, "changes from \(old.type) to \(attribute.type), \(why)"))
        }
        return step
    }

    private mutating func mapRelationship(
        _ relationship: RelationshipDescription, of entity: String, from stored: EntityInfo
    ) -> SchemaMapping.Step {
        let empty: StoreValue = relationship.isToMany ? .objects([]) : .null
        var step = SchemaMapping.Step(
            name: relationship.name, source: nil, conversion: .none, fill: empty, isRequired: false)
        let inverseSource = relationship.inverse.flatMap { sourceRelationship(named: $0, in: relationship.destination) }
        guard
            let slot = Self.slot(
                named: [relationship.renamingIdentifier, relationship.name], in: stored, attribute: false)
        else {
            step.isDerivedFromInverse = inverseSource != nil
            step.isRequired = !relationship.isOptional
            let filled = inverseSource != nil ? "filled from its inverse" : "empty"
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: relationship.name,
                    summary: "relationship added; existing objects start \(filled)"))
            return step
        }
        step.source = slot
        let old = stored.relationship(at: slot).description
        if old.name != relationship.name {
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: relationship.name, summary: "renamed from '\(old.name)'"))
        }
        // The stored destination's objects must be objects of the new destination: the same
        // (possibly renamed) entity, or one it now inherits from (a widened destination).
        let mappedOld = targetOf[old.destination].flatMap { target.info(named: $0) }
        guard let mappedOld, let newDestination = target.info(named: relationship.destination),
            mappedOld.isKind(of: newDestination)
        else {
            problems.append(
                .migrationProblem(
                    entity: entity, key: relationship.name,
                    "now points to '\(relationship.destination)' instead of '\(old.destination)', and objects of "
                        + "one cannot become objects of the other"))
            return step
        }
        step.referenceRenames = referenceRenames
        if old.isToMany != relationship.isToMany {
            step.conversion = relationship.isToMany ? .toOneToToMany : .toManyToToOne
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: relationship.name,
                    summary: relationship.isToMany ? "changed from to-one to to-many" : "changed from to-many to to-one"
                ))
        }
        if old.isOptional && !relationship.isOptional { step.isRequired = true }
        // Stored both ways: a relationship whose inverse is new or another one is rebuilt from
        // the inverse's values, once, from the to-one side when only one side is to-one.
        if let inverseSource, old.inverse != inverseSource.description.name {
            let inverseIsToOne = !inverseSource.description.isToMany
            step.isDerivedFromInverse =
                relationship.isToMany && inverseIsToOne
                || (relationship.isToMany == !inverseIsToOne && relationship.name > (relationship.inverse ?? ""))
            if step.isDerivedFromInverse {
                changes.append(
                    SchemaChange(
                        entityName: entity, propertyName: relationship.name,
                        summary: "inverse changed; rebuilt from '\(relationship.inverse ?? "")'"))
            }
        }
        if old.deleteRule != relationship.deleteRule || old.isOrdered != relationship.isOrdered {
            changes.append(
                SchemaChange(
                    entityName: entity, propertyName: relationship.name,
                    summary: "delete rule or order changed (no data changes)"))
        }
        return step
    }

    /// The stored relationship that the model's relationship `name` of `entity` comes from.
    /// The stored relationship the model's relationship `name` of `entity` comes from, looked
    /// for in the entity and then in its sub-entities (an entity new in a hierarchy has no stored
    /// objects of its own, but its sub-entities may have kept the relationship).
    private func sourceRelationship(named name: String, in entity: String) -> EntityInfo.ResolvedRelationship? {
        guard let info = target.info(named: entity) else { return nil }
        for index in info.familyIndexes {
            let member = target.infos[index]
            guard let stored = sourceOf[member.name],
                let relationship = member.description.relationships.first(where: { $0.name == name }),
                let slot = Self.slot(
                    named: [relationship.renamingIdentifier, relationship.name], in: stored, attribute: false)
            else { continue }
            return stored.relationship(at: slot)
        }
        return nil
    }

    /// The stored property a model property comes from: the first of `candidates` (its renaming
    /// identifier, then its name) that `stored` has, of the same kind.
    static func slot(named candidates: [String?], in stored: EntityInfo, attribute: Bool) -> Int? {
        for case let name? in candidates {
            if let slot = stored.slotByName[name], stored.isAttribute(slot) == attribute { return slot }
        }
        return nil
    }

    /// How a stored value of type `old` becomes one of `new`, if it always can.
    static func conversion(from old: AttributeType, to new: AttributeType) -> SchemaMapping.Conversion? {
        let integers: [AttributeType] = [.integer16, .integer32, .integer64]
        switch (old, new) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64):
            return SchemaMapping.Conversion.none
        case (_, .double) where integers.contains(old): return .integerToDouble
        case (_, .decimal) where integers.contains(old): return .integerToDecimal
        case (.float, .double): return .floatToDouble
        default: return nil
        }
    }

    static func isNarrowing(from old: AttributeType, to new: AttributeType) -> Bool {
        let order: [AttributeType] = [.integer16, .integer32, .integer64, .float, .double, .decimal]
        guard let from = order.firstIndex(of: old), let to = order.firstIndex(of: new) else { return false }
        return to < from
    }
}
