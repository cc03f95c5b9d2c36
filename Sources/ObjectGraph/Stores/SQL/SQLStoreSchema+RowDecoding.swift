import Foundation

extension SQLStoreSchema {
    /// How the columns of one table's rows become an `EntityTable.Row`, worked out once per read
    /// rather than once per row: which slot each column fills and how it decodes, and the values
    /// of the slots no column holds (to-many relationships, filled in later).
    struct RowDecoding {
        /// What one column of a `SELECT _key, _version, <columns>` holds.
        enum Column {
            /// An attribute of this type.
            case attribute(AttributeType)
            /// A to-one relationship's key (or `"<Entity>:<key>"` when polymorphic).
            case reference(destination: String, polymorphic: Bool)
        }

        let table: Table
        let info: EntityInfo
        /// Per slot, the column that holds it (its offset after `_key` and `_version`), or `nil`.
        let columnOfSlot: [Int?]
        /// Per column, in the table's column order.
        let columns: [Column]
        /// Whether a decoded row must still be checked with `EntityInfo.problem(with:)`: only
        /// relationships may hold what decoding does not check (a referenced entity outside the
        /// relationship's destination, a join table's members); attributes decode to their type
        /// or not at all.
        let checksRows: Bool
    }

    /// The decoding of the rows of the entity at `entityIndex`.
    func rowDecoding(entityIndex: Int) -> RowDecoding {
        let table = tables[entityIndex]
        let info = model.infos[entityIndex]
        var columnOfSlot = [Int?](repeating: nil, count: info.propertyCount)
        var columns: [RowDecoding.Column] = []
        columns.reserveCapacity(table.columns.count)
        for (offset, (slot, _)) in table.columns.enumerated() {
            columnOfSlot[slot] = offset
            columns.append(
                info.isAttribute(slot)
                    ? .attribute(info.attribute(at: slot).type)
                    : .reference(
                        destination: info.relationship(at: slot).description.destination,
                        polymorphic: table.polymorphicSlots.contains(slot)))
        }
        return RowDecoding(
            table: table, info: info, columnOfSlot: columnOfSlot, columns: columns,
            checksRows: info.propertyCount > info.attributeCount)
    }

    /// The key and row of the current row of a `SELECT _key, _version, <columns>`, with empty
    /// to-many relationships. The values are built in slot order, each once.
    ///
    /// - Throws: `.corruptStore` naming `url` for a key or version that is not an integer, or a
    ///   column that does not hold its attribute's type or a key.
    func decodeRow(
        _ row: any SQLStatement, _ decoding: RowDecoding, _ dialect: SQLDialect, url: URL
    ) throws -> (key: Int64, row: EntityTable.Row) {
        guard let key = row.column(0).integer, let version = row.column(1).integer else {
            throw PersistenceError.corruptSQLStore(url, "the table \(decoding.table.name) holds a non-integer key")
        }
        guard Self.isObjectKey(key) else {
            throw PersistenceError.corruptSQLStore(
                url, "the table \(decoding.table.name) holds the key \(key), outside 1...\(EntityTable.maxKey)")
        }
        let defaults = decoding.info.defaultValues
        var values: [StoreValue] = []
        values.reserveCapacity(decoding.columnOfSlot.count)
        for (slot, column) in decoding.columnOfSlot.enumerated() {
            guard let column else {
                values.append(defaults[slot])
                continue
            }
            let stored = row.column(column + 2)
            switch decoding.columns[column] {
            case .attribute(let type):
                guard let value = SQLColumnCoding.decode(stored, as: type, in: dialect) else {
                    throw PersistenceError.corruptSQLStore(
                        url,
                        "\(ObjectID(entityName: decoding.info.name, key: key)).\(decoding.info.propertyName(at: slot)) "
                            + "holds \(stored.kindName), not a \(type) value")
                }
                values.append(value)
            case .reference(let destination, let polymorphic):
                if let target = Self.reference(stored, destination: destination, polymorphic: polymorphic) {
                    values.append(.object(target))
                } else if stored == .null {
                    values.append(.null)
                } else {
                    throw PersistenceError.corruptSQLStore(
                        url,
                        "\(ObjectID(entityName: decoding.info.name, key: key)).\(decoding.info.propertyName(at: slot)) "
                            + "holds \(stored.kindName), not a key")
                }
            }
        }
        return (key, EntityTable.Row(version: version, values: values))
    }

    /// Throws if `row` cannot be a row of the decoding's entity (see ``RowDecoding/checksRows``).
    func check(_ row: EntityTable.Row, key: Int64, _ decoding: RowDecoding, url: URL) throws {
        guard decoding.checksRows, let problem = decoding.info.problem(with: row.values) else { return }
        throw PersistenceError.corruptSQLStore(url, "\(ObjectID(entityName: decoding.info.name, key: key)): \(problem)")
    }
}
