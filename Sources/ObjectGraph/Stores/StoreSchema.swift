import Foundation

/// The model's schema as both store formats embed it: JSON text listing every entity with its
/// attributes (name, type, optionality, index) and relationships (destination, inverse,
/// cardinality, order, delete rule, counts), its uniqueness constraints, and its fetch indexes
/// (`"indexes"`, written only when there are some, so that older files read unchanged).
///
/// A store can be read without the app from its schema alone (`ManagedObjectModel(entities:)`),
/// and a model change is detected by comparing schemas.
enum StoreSchema {
    static func write(_ entities: [EntityDescription], into writer: inout JSONWriter, pretty: Bool) {
        writer.byte(UInt8(ascii: "["))
        for (index, entity) in entities.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            if pretty { writer.raw("\n    ") }
            writer.raw(pretty ? "{\"name\": " : "{\"name\":")
            writer.string(entity.name)
            writer.raw(pretty ? ", \"attributes\": [" : ",\"attributes\":[")
            for (offset, attribute) in entity.attributes.enumerated() {
                if offset > 0 { writer.raw(pretty ? ", " : ",") }
                writer.raw(pretty ? "{\"name\": " : "{\"name\":")
                writer.string(attribute.name)
                writer.raw(pretty ? ", \"type\": " : ",\"type\":")
                writer.string(attribute.type.rawValue)
                writer.raw(pretty ? ", \"optional\": " : ",\"optional\":")
                writer.bool(attribute.isOptional)
                writer.raw(pretty ? ", \"indexed\": " : ",\"indexed\":")
                writer.bool(attribute.isIndexed)
                writer.byte(UInt8(ascii: "}"))
            }
            writer.raw(pretty ? "], \"relationships\": [" : "],\"relationships\":[")
            for (offset, relationship) in entity.relationships.enumerated() {
                if offset > 0 { writer.raw(pretty ? ", " : ",") }
                writer.raw(pretty ? "{\"name\": " : "{\"name\":")
                writer.string(relationship.name)
                writer.raw(pretty ? ", \"destination\": " : ",\"destination\":")
                writer.string(relationship.destination)
                writer.raw(pretty ? ", \"inverse\": " : ",\"inverse\":")
                if let inverse = relationship.inverse { writer.string(inverse) } else { writer.null() }
                writer.raw(pretty ? ", \"toMany\": " : ",\"toMany\":")
                writer.bool(relationship.isToMany)
                writer.raw(pretty ? ", \"ordered\": " : ",\"ordered\":")
                writer.bool(relationship.isOrdered)
                writer.raw(pretty ? ", \"optional\": " : ",\"optional\":")
                writer.bool(relationship.isOptional)
                writer.raw(pretty ? ", \"deleteRule\": " : ",\"deleteRule\":")
                writer.string(relationship.deleteRule.rawValue)
                writer.raw(pretty ? ", \"minCount\": " : ",\"minCount\":")
                writer.int(Int64(relationship.minCount))
                writer.raw(pretty ? ", \"maxCount\": " : ",\"maxCount\":")
                writer.int(Int64(relationship.maxCount))
                writer.byte(UInt8(ascii: "}"))
            }
            writer.raw(pretty ? "], \"uniquenessConstraints\": [" : "],\"uniquenessConstraints\":[")
            for (offset, constraint) in entity.uniquenessConstraints.enumerated() {
                if offset > 0 { writer.raw(pretty ? ", " : ",") }
                writer.byte(UInt8(ascii: "["))
                for (position, name) in constraint.enumerated() {
                    if position > 0 { writer.raw(pretty ? ", " : ",") }
                    writer.string(name)
                }
                writer.byte(UInt8(ascii: "]"))
            }
            writer.byte(UInt8(ascii: "]"))
            writeIndexes(entity.indexes, into: &writer, pretty: pretty)
            writeHierarchy(of: entity, into: &writer, pretty: pretty)
            writer.byte(UInt8(ascii: "}"))
        }
        if pretty && !entities.isEmpty { writer.raw("\n  ") }
        writer.byte(UInt8(ascii: "]"))
    }

    static func read(from reader: inout JSONReader) throws -> [EntityDescription] {
        var entities: [EntityDescription] = []
        try reader.readArray { reader, _ in
            var entity = EntityDescription(
                name: "", attributes: [], relationships: [], uniquenessConstraints: [], objectClass: nil)
            var seen: Set<String> = []
            try reader.readObject { reader, key in
                seen.insert(key)
                switch key {
                case "name": entity.name = try reader.readString()
                case "attributes":
                    try reader.readArray { reader, _ in entity.attributes.append(try readAttribute(&reader)) }
                case "relationships":
                    try reader.readArray { reader, _ in entity.relationships.append(try readRelationship(&reader)) }
                case "uniquenessConstraints":
                    try reader.readArray { reader, _ in
                        var names: [String] = []
                        try reader.readArray { reader, _ in names.append(try reader.readString()) }
                        entity.uniquenessConstraints.append(names)
                    }
                case "indexes": entity.indexes = try readIndexes(&reader)
                case "superentity", "abstract": try readHierarchy(key, into: &entity, &reader)
                default: throw reader.error("unknown schema key \"\(key)\"")
                }
            }
            try requireKeys(["name", "attributes", "relationships", "uniquenessConstraints"], in: seen, reader)
            entities.append(entity)
        }
        return try markInheritedProperties(entities, reader)
    }

    /// Writes `,"indexes":[{"name":…,"properties":[…]},…]`, or nothing when there are none (an
    /// optional key: a schema without indexes reads as before).
    private static func writeIndexes(_ indexes: [FetchIndexDescription], into writer: inout JSONWriter, pretty: Bool) {
        guard !indexes.isEmpty else { return }
        writer.raw(pretty ? ", \"indexes\": [" : ",\"indexes\":[")
        for (offset, index) in indexes.enumerated() {
            if offset > 0 { writer.raw(pretty ? ", " : ",") }
            writer.raw(pretty ? "{\"name\": " : "{\"name\":")
            writer.string(index.name)
            writer.raw(pretty ? ", \"properties\": [" : ",\"properties\":[")
            for (position, name) in index.propertyNames.enumerated() {
                if position > 0 { writer.raw(pretty ? ", " : ",") }
                writer.string(name)
            }
            writer.raw("]}")
        }
        writer.byte(UInt8(ascii: "]"))
    }

    private static func readIndexes(_ reader: inout JSONReader) throws -> [FetchIndexDescription] {
        var indexes: [FetchIndexDescription] = []
        try reader.readArray { reader, _ in
            var index = FetchIndexDescription(name: "", propertyNames: [])
            var seen: Set<String> = []
            try reader.readObject { reader, key in
                seen.insert(key)
                switch key {
                case "name": index.name = try reader.readString()
                case "properties":
                    try reader.readArray { reader, _ in index.propertyNames.append(try reader.readString()) }
                default: throw reader.error("unknown index key \"\(key)\"")
                }
            }
            try requireKeys(["name", "properties"], in: seen, reader)
            indexes.append(index)
        }
        return indexes
    }

    private static func readAttribute(_ reader: inout JSONReader) throws -> AttributeDescription {
        var name = ""
        var type = AttributeType.string
        var isOptional = false
        var isIndexed = false
        var seen: Set<String> = []
        try reader.readObject { reader, key in
            seen.insert(key)
            switch key {
            case "name": name = try reader.readString()
            case "type":
                let offset = reader.position
                let raw = try reader.readString()
                guard let parsed = AttributeType(rawValue: raw) else {
                    throw reader.error("unknown attribute type \"\(raw)\"", at: offset)
                }
                type = parsed
            case "optional": isOptional = try reader.readBool()
            case "indexed": isIndexed = try reader.readBool()
            default: throw reader.error("unknown attribute key \"\(key)\"")
            }
        }
        try requireKeys(["name", "type", "optional", "indexed"], in: seen, reader)
        return AttributeDescription(name: name, type: type, isOptional: isOptional, isIndexed: isIndexed)
    }

    private static func readRelationship(_ reader: inout JSONReader) throws -> RelationshipDescription {
        var relationship = RelationshipDescription(name: "", destination: "", inverse: nil)
        var seen: Set<String> = []
        try reader.readObject { reader, key in
            seen.insert(key)
            switch key {
            case "name": relationship.name = try reader.readString()
            case "destination": relationship.destination = try reader.readString()
            case "inverse": relationship.inverse = reader.readNull() ? nil : try reader.readString()
            case "toMany": relationship.isToMany = try reader.readBool()
            case "ordered": relationship.isOrdered = try reader.readBool()
            case "optional": relationship.isOptional = try reader.readBool()
            case "deleteRule":
                let offset = reader.position
                let raw = try reader.readString()
                guard let rule = DeleteRule(rawValue: raw) else {
                    throw reader.error("unknown delete rule \"\(raw)\"", at: offset)
                }
                relationship.deleteRule = rule
            case "minCount": relationship.minCount = Int(clamping: try reader.readInt64())
            case "maxCount": relationship.maxCount = Int(clamping: try reader.readInt64())
            default: throw reader.error("unknown relationship key \"\(key)\"")
            }
        }
        try requireKeys(
            ["name", "destination", "inverse", "toMany", "ordered", "optional", "deleteRule", "minCount", "maxCount"],
            in: seen, reader)
        return relationship
    }

    static func requireKeys(_ keys: [String], in seen: Set<String>, _ reader: JSONReader) throws {
        for key in keys where !seen.contains(key) { throw reader.error("the key \"\(key)\" is missing") }
    }

    /// The schema as standalone JSON bytes (the binary store's header embeds these).
    static func encode(_ entities: [EntityDescription]) -> [UInt8] {
        var writer = JSONWriter()
        write(entities, into: &writer, pretty: false)
        return writer.bytes
    }

    /// Decodes standalone schema bytes.
    static func decode(_ bytes: [UInt8], url: URL) throws -> [EntityDescription] {
        var reader = JSONReader(bytes: bytes, url: url)
        reader.path = ["schema"]
        let entities = try read(from: &reader)
        try reader.expectEnd()
        return entities
    }

    /// Checks a stored schema against the model.
    ///
    /// - Throws: `PersistenceError.Code.modelMismatch` listing the differences.
    static func check(_ stored: [EntityDescription], against model: ManagedObjectModel) throws {
        let differences = ManagedObjectModel.schemaDifferences(from: stored, to: model.entities)
        guard differences.isEmpty else { throw PersistenceError.modelMismatch(differences) }
    }
}
