extension XcodeModel {
    /// Builds the model with typed classes bound to its entities: each class to the entity whose
    /// class name (`representedClassName`) is the class's name, or, for an entity that names no
    /// class, whose name is the class's ``ManagedObject/entityName``. Entities without a class
    /// keep `ManagedObject`.
    ///
    /// Each `@Attribute` and `@Relationship` of a class must be a property of its entity (or of
    /// a parent entity) of the same type and cardinality; the model's defaults, rules and
    /// options come from the XML.
    ///
    /// For example:
    /// ```swift
    /// let model = try XcodeModel(contentsOf: url).makeModel(classes: [Note.self, Folder.self])
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for a class that matches no entity, two
    ///   classes for one entity, or a declared property the entity lacks or types differently.
    ///
    /// Core Data: the class named by `NSEntityDescription.managedObjectClassName`.
    public func makeModel(classes: [ManagedObject.Type]) throws -> ManagedObjectModel {
        var entities = entityDescriptions
        var bound: Set<Int> = []
        for type in classes {
            let typeName = String(describing: type)
            guard
                let index = self.entities.firstIndex(where: { $0.className == typeName })
                    ?? self.entities.firstIndex(where: { $0.className == nil && $0.name == type.entityName })
            else {
                throw PersistenceError.invalidModel(
                    "The class \(typeName) matches no entity of the model '\(name)': no entity names it as its "
                        + "class, and no entity without a class is named '\(type.entityName)'. Rename the class or "
                        + "set the entity's class in the model.",
                    entity: type.entityName)
            }
            guard bound.insert(index).inserted else {
                throw PersistenceError.invalidModel(
                    "Two classes are given for entity '\(entities[index].name)'. Pass one class per entity.",
                    entity: entities[index].name)
            }
            try check(type, against: entities[index].name)
            entities[index].managedObjectClass = type
        }
        return try ManagedObjectModel(entities: entities)
    }

    /// Checks that every property `type` declares is a property of `entityName` or a parent.
    private func check(_ type: ManagedObject.Type, against entityName: String) throws {
        let declared = try type.derivedEntityDescription()
        var attributes: [String: AttributeDescription] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        var next = entity(named: entityName)
        var seen: Set<String> = []
        while let current = next, seen.insert(current.name).inserted {
            attributes.merge(current.description.attributesByName) { own, _ in own }
            relationships.merge(current.description.relationshipsByName) { own, _ in own }
            next = current.description.superentityName.flatMap { entity(named: $0) }
        }
        func mismatch(_ key: String, _ problem: String) -> PersistenceError {
            .invalidModel(
                "\(type).\(key) \(problem) in entity '\(entityName)' of the model '\(name)'. Make the class "
                    + "match the model (objectgraph generate writes classes that do).",
                entity: entityName, key: key)
        }
        for attribute in declared.attributes {
            guard let imported = attributes[attribute.name] else {
                throw mismatch(attribute.name, "is not an attribute")
            }
            guard imported.type == attribute.type else {
                throw mismatch(attribute.name, "is a \(attribute.type) attribute, but a \(imported.type) one")
            }
        }
        for relationship in declared.relationships {
            guard let imported = relationships[relationship.name] else {
                throw mismatch(relationship.name, "is not a relationship")
            }
            guard imported.isToMany == relationship.isToMany, imported.isOrdered == relationship.isOrdered else {
                throw mismatch(relationship.name, "has another cardinality or ordering")
            }
        }
    }
}
