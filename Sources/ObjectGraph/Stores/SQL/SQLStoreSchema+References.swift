extension SQLStoreSchema {
    /// How a column or join table stores a reference: the destination's key (an integer), or,
    /// when the destination has sub-entities, `"<Entity>:<key>"` (text), so that each reference
    /// keeps its object's concrete entity, as the file stores do.
    static func isPolymorphic(_ relationship: EntityInfo.ResolvedRelationship, in model: ManagedObjectModel) -> Bool {
        model.infos[relationship.destinationIndex].hasSubentities
    }

    /// `id` as a column or join table stores it.
    static func referenceValue(_ id: ObjectID, polymorphic: Bool) -> SQLValue {
        polymorphic ? .text("\(id.entityName):\(id.key)") : .integer(id.key)
    }

    /// The reference a column or join table holds (`nil` for a value that is none), to an
    /// object of `destination` unless the value names its entity.
    static func reference(_ value: SQLValue, destination: String, polymorphic: Bool) -> ObjectID? {
        switch value {
        case .integer(let key) where !polymorphic: return ObjectID(entityName: destination, key: key)
        case .text(let text) where polymorphic:
            guard let colon = text.lastIndex(of: ":"), let key = Int64(text[text.index(after: colon)...]) else {
                return nil
            }
            return ObjectID(entityName: String(text[..<colon]), key: key)
        default: return nil
        }
    }

    /// The value a column of `table` stores for `value` of `slot`, in `dialect`.
    func columnValue(_ value: StoreValue, slot: Int, in table: Table, _ dialect: SQLDialect) -> SQLValue {
        if case .object(let id) = value {
            return Self.referenceValue(id, polymorphic: table.polymorphicSlots.contains(slot))
        }
        return SQLColumnCoding.encode(value, in: dialect)
    }
}

extension SQLStoreSchema.Join {
    /// The member a `member` column value names, or `nil` for an invalid one.
    func member(_ value: SQLValue) -> ObjectID? {
        SQLStoreSchema.reference(value, destination: destinationEntityName, polymorphic: isPolymorphic)
    }
}
