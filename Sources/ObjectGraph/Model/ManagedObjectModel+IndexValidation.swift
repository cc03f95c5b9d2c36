extension ManagedObjectModel {
    /// Checks the fetch indexes of `entity`: each is named, unique by name, and lists distinct
    /// indexable attributes of the entity.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` naming the entity and the index or property.
    static func validateIndexes(of entity: EntityDescription) throws {
        var names: Set<String> = []
        let attributes = entity.attributesByName
        for index in entity.indexes {
            if let problem = index.problem {
                throw PersistenceError.invalidModel(
                    "An index of '\(entity.name)' names no attribute: \(problem). Index stored attributes only.",
                    entity: entity.name, key: index.name)
            }
            guard !index.name.isEmpty else {
                throw PersistenceError.invalidModel(
                    "An index of '\(entity.name)' has an empty name. Give every index a name.", entity: entity.name)
            }
            guard names.insert(index.name).inserted else {
                throw PersistenceError.invalidModel(
                    "Entity '\(entity.name)' has two indexes named '\(index.name)'. Index names must be unique.",
                    entity: entity.name, key: index.name)
            }
            guard !index.propertyNames.isEmpty else {
                throw PersistenceError.invalidModel(
                    "The index '\(index.name)' of '\(entity.name)' lists no property. List one or more attributes.",
                    entity: entity.name, key: index.name)
            }
            guard Set(index.propertyNames).count == index.propertyNames.count else {
                throw PersistenceError.invalidModel(
                    "The index '\(index.name)' of '\(entity.name)' lists a property twice. List each once.",
                    entity: entity.name, key: index.name)
            }
            for name in index.propertyNames {
                guard let attribute = attributes[name] else {
                    throw PersistenceError.invalidModel(
                        "The index '\(index.name)' of '\(entity.name)' names '\(name)', which is not one of its "
                            + "attributes. Index attributes only (relationships are not indexable).",
                        entity: entity.name, key: name)
                }
                guard attribute.type.isIndexable else {
                    throw PersistenceError.invalidModel(
                        "The index '\(index.name)' of '\(entity.name)' names '\(name)', of type \(attribute.type), "
                            + "which cannot be indexed. Index integer, Bool, floating-point, Date, Decimal, String "
                            + "or UUID attributes.",
                        entity: entity.name, key: name)
                }
            }
        }
    }
}
