extension BinaryStoreFrame {
    /// Writes a relationship value that holds an object of one of the destination's sub-entities
    /// with each object's entity number (keys are unique per entity, not per hierarchy), and
    /// returns true; returns false, writing nothing, for any other value (written as before, so
    /// files of models without inheritance do not change).
    ///
    /// ```
    /// value = 0x0E entity:varint key:varint                   ; to-one, of a sub-entity
    ///       | 0x0F count:varint (entity:varint key:varint)*   ; to-many, each with its entity
    /// ```
    static func writeSubentityReferences(
        _ value: StoreValue, relationship: EntityInfo.ResolvedRelationship, model: ManagedObjectModel,
        into writer: inout ByteWriter
    ) -> Bool {
        guard !relationship.destinationSubentityNames.isEmpty else { return false }
        let destination = relationship.description.destination
        func write(_ id: ObjectID) {
            let entity =
                id.entityName == destination ? relationship.destinationIndex : model.info(named: id.entityName)?.index
            writer.varint(UInt64(entity ?? relationship.destinationIndex))
            writer.varint(UInt64(id.key))
        }
        switch value {
        case .object(let id) where id.entityName != destination:
            writer.u8(Tag.entityObject.rawValue)
            write(id)
        case .objects(let ids) where ids.contains(where: { $0.entityName != destination }):
            writer.u8(Tag.entityObjects.rawValue)
            writer.varint(UInt64(ids.count))
            for id in ids { write(id) }
        default:
            return false
        }
        return true
    }
}
