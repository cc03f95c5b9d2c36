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

    /// Whether `key` can be an object's key: a row or reference with another (a file edited by
    /// hand, or damaged) is a corrupt store, not a key the tables refuse.
    static func isObjectKey(_ key: Int64) -> Bool { key >= 1 && key <= EntityTable.maxKey }

    /// The object key a query selected in `value` (a `_key` column), `nil` for a value that is
    /// not an integer.
    ///
    /// - Throws: `.corruptStore` for an integer outside `1...EntityTable.maxKey`.
    static func selectedKey(_ value: SQLValue) throws -> Int64? {
        guard let key = value.integer else { return nil }
        guard isObjectKey(key) else { throw PersistenceError.outOfRangeSQLKey(key) }
        return key
    }

    /// The reference a column or join table holds (`nil` for a value that is none, or whose key
    /// is outside `1...EntityTable.maxKey`), to an object of `destination` unless the value
    /// names its entity.
    static func reference(_ value: SQLValue, destination: String, polymorphic: Bool) -> ObjectID? {
        switch value {
        case .integer(let key) where !polymorphic && isObjectKey(key):
            return ObjectID(entityName: destination, key: key)
        case .text(let text) where polymorphic:
            guard let colon = text.lastIndex(of: ":"), let key = Int64(text[text.index(after: colon)...]),
                isObjectKey(key)
            else {
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
