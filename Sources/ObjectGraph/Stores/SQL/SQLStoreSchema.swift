/// How a model maps onto SQL tables: the layout every SQL store shares.
///
/// - A table per entity, named like the entity, with `_key` (the `ObjectID` key, the primary
///   key), `_version` (the optimistic-locking version, checked in each `UPDATE`), a column per
///   attribute (encoded by ``SQLColumnCoding``) and a column per to-one relationship (the
///   destination's key; no SQL foreign-key constraint, since delete rules are the engine's and a
///   reference without an inverse may outlive its target, as in the other stores).
/// - A to-many relationship whose inverse is an unordered to-one is not stored: it is the rows of
///   the destination whose inverse column holds the key (read back in key order, as Core Data
///   keeps no order for a set). Every other to-many (many-to-many, ordered, or without an
///   inverse) has a join table `"<Entity>.<relationship>"` with `owner`, `member` and `position`
///   (the member's index in the owner's array, so order is kept exactly). A many-to-many is thus
///   stored once per side, each side in the order its objects keep.
/// - An index per indexed attribute (`"<Entity>.<attribute>.index"`), an index per fetch index
///   (`"<Entity>.<index name>.fetchIndex"`, over its attributes in order), a unique index per
///   uniqueness constraint over attributes and to-one relationships, an index per to-one
///   column (delete rules and inverse reads look rows up by it), and `(owner, position)` and
///   `(member)` indexes on join tables.
/// - `"objectgraph.metadata"` (name, value): the format version, the schema (``StoreSchema``'s
///   JSON, readable without the app), and the store metadata (`store.<key>` rows);
///   `"objectgraph.keys"` (entity, next key); and the persistent history tables.
///
/// Entity inheritance keeps a table per entity, each object in its own entity's table with
/// every property it inherits. A reference to an entity that has sub-entities (a to-one column,
/// a join table's `member`) is text, `"<Entity>:<key>"`, so that it keeps the object's concrete
/// entity; such to-many relationships, and those of entities in a hierarchy, use join tables.
struct SQLStoreSchema: Sendable {
    /// One entity's table.
    struct Table: Sendable {
        /// The entity's index in the model.
        var entityIndex: Int
        /// The table's name (the entity's name).
        var name: String
        /// The slots stored in columns of the table (attributes, then to-one relationships),
        /// each with its column name.
        var columns: [(slot: Int, name: String)]
        /// The to-many slots stored in join tables.
        var joins: [Join]
        /// The to-many slots read from the destination's inverse column.
        var derived: [Derived]
        /// The to-one slots whose column names each reference's entity (see
        /// ``isPolymorphic(_:in:)``).
        var polymorphicSlots: Set<Int> = []
    }

    /// A join table for one side of a to-many relationship.
    struct Join: Sendable {
        var slot: Int
        var name: String
        var destinationEntityName: String
        /// Whether `member` names each member's entity (see ``isPolymorphic(_:in:)``).
        var isPolymorphic = false
    }

    /// A to-many relationship read from its destination's to-one inverse column.
    struct Derived: Sendable {
        var slot: Int
        var destinationIndex: Int
        var destinationTable: String
        var inverseColumn: String
    }

    /// The columns every entity table has before the properties.
    static let keyColumn = "_key"
    static let versionColumn = "_version"
    static let metadataTable = "objectgraph.metadata"
    static let keysTable = "objectgraph.keys"
    static let transactionsTable = "objectgraph.transactions"
    static let changesTable = "objectgraph.changes"
    /// The format version written in the metadata table; a store with a higher one is refused.
    /// Version 2 added the history's runs of deleted keys (``lastKeyColumn``); a version 1 store
    /// is upgraded when it is opened for writing (``upgradeFormat(_:)``).
    static let formatVersion = 2

    let model: ManagedObjectModel
    let tables: [Table]

    /// The layout of `model`.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` if two tables or columns would get the same
    ///   name (a property named `_key` or `_version`, or an entity named like a join table).
    init(model: ManagedObjectModel) throws {
        self.model = model
        var tables: [Table] = []
        var tableNames: Set<String> = [Self.metadataTable, Self.keysTable, Self.transactionsTable, Self.changesTable]
        func claim(_ name: String) throws {
            guard tableNames.insert(name).inserted else {
                throw PersistenceError.sqlNameCollision("the table \(name)")
            }
        }
        for info in model.infos {
            try claim(info.name)
            var table = Table(entityIndex: info.index, name: info.name, columns: [], joins: [], derived: [])
            for slot in 0..<info.propertyCount {
                let name = info.propertyName(at: slot)
                if name == Self.keyColumn || name == Self.versionColumn {
                    throw PersistenceError.sqlNameCollision("the column \(info.name).\(name)")
                }
                if info.isAttribute(slot) {
                    table.columns.append((slot, name))
                    continue
                }
                let relationship = info.relationship(at: slot)
                let description = relationship.description
                let isPolymorphic = Self.isPolymorphic(relationship, in: model)
                if !description.isToMany {
                    table.columns.append((slot, name))
                    if isPolymorphic { table.polymorphicSlots.insert(slot) }
                    continue
                }
                let destination = model.infos[relationship.destinationIndex]
                // Read from the destination's inverse column only when that is one table of
                // plain keys: no sub-entities on either side.
                if !description.isOrdered, !isPolymorphic, !info.hasSubentities, info.lineage.superentityIndex == nil,
                    let inverseName = description.inverse,
                    let inverse = destination.description.relationships.first(where: { $0.name == inverseName }),
                    !inverse.isToMany
                {
                    table.derived.append(
                        Derived(
                            slot: slot, destinationIndex: destination.index, destinationTable: destination.name,
                            inverseColumn: inverseName))
                } else {
                    table.joins.append(
                        Join(
                            slot: slot, name: "\(info.name).\(name)", destinationEntityName: destination.name,
                            isPolymorphic: isPolymorphic))
                }
            }
            tables.append(table)
        }
        for table in tables { for join in table.joins { try claim(join.name) } }
        self.tables = tables
    }

    /// The statements that create the whole schema, in order.
    func createStatements(_ dialect: SQLDialect) -> [String] {
        let q = dialect.quote
        let key = dialect.typeName(.key)
        var statements = [
            "CREATE TABLE \(q(Self.metadataTable)) (name \(dialect.typeName(.text)) PRIMARY KEY, "
                + "value \(dialect.typeName(.text)) NOT NULL)",
            "CREATE TABLE \(q(Self.keysTable)) (entity \(dialect.typeName(.text)) PRIMARY KEY, "
                + "next \(dialect.typeName(.integer)) NOT NULL)",
            "CREATE TABLE \(q(Self.transactionsTable)) (token \(key) PRIMARY KEY, "
                + "timestamp \(dialect.typeName(.exactReal)) NOT NULL, author \(dialect.typeName(.text)))",
            "CREATE TABLE \(q(Self.changesTable)) (token \(key) NOT NULL, entity \(dialect.typeName(.text)) NOT NULL, "
                + "key \(key) NOT NULL, kind \(dialect.typeName(.integer)) NOT NULL, "
                + "properties \(dialect.typeName(.text)), \(Self.lastKeyColumn) \(key)"
                + (dialect.insertionOrderDeclaration.map { ", \($0))" } ?? ")"),
            "CREATE INDEX \(q(Self.changesTable + ".token.index")) ON \(q(Self.changesTable)) (token)",
        ]
        for table in tables { statements += createStatements(of: table, dialect) }
        return statements
    }

    /// The statements that create one entity's table, its indexes and its join tables, in order.
    func createStatements(of table: Table, _ dialect: SQLDialect) -> [String] {
        let q = dialect.quote
        let key = dialect.typeName(.key)
        var statements: [String] = []
        let info = model.infos[table.entityIndex]
        var columns = ["\(q(Self.keyColumn)) \(key) PRIMARY KEY", "\(q(Self.versionColumn)) \(key) NOT NULL"]
        for (slot, name) in table.columns {
            let type =
                info.isAttribute(slot)
                ? dialect.typeName(SQLColumnCoding.columnType(info.attribute(at: slot).type))
                : table.polymorphicSlots.contains(slot) ? dialect.typeName(.text) : key
            columns.append(type.isEmpty ? q(name) : "\(q(name)) \(type)")
        }
        statements.append("CREATE TABLE \(q(table.name)) (\(columns.joined(separator: ", ")))")
        func columnType(_ slot: Int) -> SQLColumnType {
            info.isAttribute(slot)
                ? SQLColumnCoding.columnType(info.attribute(at: slot).type)
                : table.polymorphicSlots.contains(slot) ? .text : .key
        }
        for (slot, name) in table.columns
        where info.isAttribute(slot) ? info.attribute(at: slot).isIndexed : true {
            statements.append(
                "CREATE INDEX \(q("\(table.name).\(name).index")) ON \(q(table.name)) "
                    + "(\(dialect.indexKey(q(name), columnType(slot), unique: false)))")
        }
        statements += fetchIndexStatements(of: table, dialect)
        let columnSlots = Dictionary(table.columns.map { ($0.name, $0.slot) }, uniquingKeysWith: { first, _ in first })
        for (offset, constraint) in info.description.uniquenessConstraints.enumerated()
        where !constraint.isEmpty && constraint.allSatisfy({ columnSlots[$0] != nil }) {
            let keys = constraint.map { dialect.indexKey(q($0), columnType(columnSlots[$0]!), unique: true) }
            statements.append(
                "CREATE UNIQUE INDEX \(q("\(table.name).unique\(offset)")) ON \(q(table.name)) "
                    + "(\(keys.joined(separator: ", ")))")
        }
        for join in table.joins {
            statements.append(
                "CREATE TABLE \(q(join.name)) (owner \(key) NOT NULL, position \(dialect.typeName(.integer)) "
                    + "NOT NULL, member \(join.isPolymorphic ? dialect.typeName(.text) : key) NOT NULL, "
                    + "PRIMARY KEY (owner, position))")
            statements.append("CREATE INDEX \(q(join.name + ".member.index")) ON \(q(join.name)) (member)")
        }
        return statements
    }

    /// The `CREATE INDEX` statements of the entity's fetch indexes (`FetchIndexDescription`) over
    /// its columns, in their order, so that SQL answers an equality prefix and a range on the
    /// next column as the in-memory index does; one over a single column that already has its
    /// index adds nothing.
    func fetchIndexStatements(of table: Table, _ dialect: SQLDialect, ifNotExists: Bool = false) -> [String] {
        let q = dialect.quote
        let info = model.infos[table.entityIndex]
        let columnNames = Set(table.columns.map(\.name))
        let indexed = Set(
            table.columns.filter { info.isAttribute($0.slot) ? info.attribute(at: $0.slot).isIndexed : true }.map(
                \.name))
        return info.description.indexes.compactMap { index in
            let names = index.propertyNames
            guard !names.isEmpty, names.allSatisfy(columnNames.contains),
                !(names.count == 1 && indexed.contains(names[0]))
            else { return nil }
            return "CREATE INDEX \(ifNotExists ? "IF NOT EXISTS " : "")\(q("\(table.name).\(index.name).fetchIndex")) "
                + "ON \(q(table.name)) (\(names.map(q).joined(separator: ", ")))"
        }
    }
}
