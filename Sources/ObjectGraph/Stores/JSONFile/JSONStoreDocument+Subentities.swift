extension JSONStoreDocument {
    /// Writes a relationship's object: its key, or `["Entity", key]` for an object of one of the
    /// destination's sub-entities (keys are unique per entity, not per hierarchy).
    static func writeReference(_ id: ObjectID, destination: String, into writer: inout JSONWriter) {
        guard id.entityName != destination else {
            writer.int(id.key)
            return
        }
        writer.byte(UInt8(ascii: "["))
        writer.string(id.entityName)
        writer.byte(UInt8(ascii: ","))
        writer.int(id.key)
        writer.byte(UInt8(ascii: "]"))
    }

    /// Reads a relationship's object as ``writeReference(_:destination:into:)`` writes it,
    /// checking that a named entity is the destination or one of its sub-entities.
    static func readReference(
        _ reader: inout JSONReader, relationship: EntityInfo.ResolvedRelationship, of info: EntityInfo
    ) throws -> ObjectID {
        let destination = relationship.description.destination
        guard reader.peek() == UInt8(ascii: "[") else {
            return ObjectID(entityName: destination, key: try reader.readInt64())
        }
        let offset = reader.position
        var entityName = destination
        var key: Int64 = 0
        try reader.readArray { reader, index in
            switch index {
            case 0: entityName = try reader.readString()
            case 1: key = try reader.readInt64()
            default: throw reader.error("an object reference has two elements: entity name and key")
            }
        }
        guard key != 0, relationship.accepts(entityNamed: entityName) else {
            throw reader.error(
                "\(info.name).\(relationship.description.name) refers to an object of '\(entityName)', which is "
                    + "not \(destination) or one of its sub-entities", at: offset)
        }
        return ObjectID(entityName: entityName, key: key)
    }
}
