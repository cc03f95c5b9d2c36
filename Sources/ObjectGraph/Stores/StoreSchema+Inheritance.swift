extension StoreSchema {
    /// Writes an entity's place in the hierarchy: `"superentity"` and `"abstract"`, each only
    /// when set, so that the schema of a model without inheritance is written as before and
    /// files without these keys read as before. (Its attributes and relationships are written
    /// flattened, inherited ones first: the layout of its rows.)
    static func writeHierarchy(of entity: EntityDescription, into writer: inout JSONWriter, pretty: Bool) {
        if let superentity = entity.superentityName {
            writer.raw(pretty ? ", \"superentity\": " : ",\"superentity\":")
            writer.string(superentity)
        }
        if entity.isAbstract {
            writer.raw(pretty ? ", \"abstract\": " : ",\"abstract\":")
            writer.bool(true)
        }
    }

    /// Reads the optional `"superentity"` or `"abstract"` key of a stored entity.
    static func readHierarchy(_ key: String, into entity: inout EntityDescription, _ reader: inout JSONReader) throws {
        switch key {
        case "superentity": entity.superentityName = try reader.readString()
        default: entity.isAbstract = try reader.readBool()
        }
    }

    /// Marks the stored (flattened) properties each sub-entity inherits: as many as its
    /// superentity has, so that ``ManagedObjectModel/init(entities:)`` counts only the others
    /// as its own (a store can be read without the app).
    ///
    /// - Throws: a corrupt-store error for an unknown superentity, or a sub-entity whose
    ///   properties do not begin with its superentity's.
    static func markInheritedProperties(_ entities: [EntityDescription], _ reader: JSONReader) throws
        -> [EntityDescription]
    {
        guard entities.contains(where: { $0.superentityName != nil }) else { return entities }
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return try entities.map { entity in
            guard let parentName = entity.superentityName else { return entity }
            guard let parent = byName[parentName],
                entity.attributes.prefix(parent.attributes.count).map(\.name) == parent.attributes.map(\.name),
                entity.relationships.prefix(parent.relationships.count).map(\.name)
                    == parent.relationships.map(\.name)
            else {
                throw reader.error(
                    "entity \"\(entity.name)\" does not begin with the properties of its superentity \"\(parentName)\"")
            }
            var marked = entity
            marked.inheritedPropertyCounts = (parent.attributes.count, parent.relationships.count)
            return marked
        }
    }
}
