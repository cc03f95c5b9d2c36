extension SQLStoreSchema {
    /// The statements a SQL store runs on one entity's table, written once per store in its
    /// dialect (the connection prepares each once and caches it).
    struct TableStatements: Sendable {
        /// `SELECT _key, _version, <columns> FROM <table> ORDER BY _key`.
        var selectAll: String
        /// `SELECT _key, _version, <columns> FROM <table> WHERE _key = …`.
        var selectOne: String
        /// `INSERT INTO <table> (_key, _version, <columns>) VALUES (…)`.
        var insert: String
        /// `UPDATE <table> SET <columns> = …, _version = … WHERE _key = … AND _version = …`:
        /// the columns' values, the new version, the key, then the expected version.
        var update: String
        /// `DELETE FROM <table> WHERE _key = …`.
        var delete: String
        /// `DELETE FROM <table> WHERE _key = … AND _version = …`: the key, then the expected version.
        var checkedDelete: String
        /// `SELECT _version FROM <table> WHERE _key = …`.
        var selectVersion: String
        /// `DELETE FROM <table>`.
        var deleteAll: String
        /// Per join table: insert a member, delete an owner's members, delete all, read all.
        var joins: [JoinStatements]
        /// Per derived to-many: read (inverse key, member key) pairs in order.
        var derived: [String]
        /// Per derived to-many: read one owner's member keys in order.
        var derivedOne: [String]
    }

    /// The statements on one join table.
    struct JoinStatements: Sendable {
        var insert: String
        var deleteOwner: String
        var deleteAll: String
        var selectAll: String
        var selectOwner: String
    }

    /// The statements for every table, in model order.
    func statements(_ dialect: SQLDialect) -> [TableStatements] {
        let q = dialect.quote
        let key = q(Self.keyColumn)
        let version = q(Self.versionColumn)
        return tables.map { table in
            let names = table.columns.map { q($0.name) }
            let assignments = names.enumerated().map { "\($1) = \(dialect.placeholder($0 + 1))" }
            let count = names.count
            let joins = table.joins.map { join in
                JoinStatements(
                    insert: "INSERT INTO \(q(join.name)) (owner, position, member) VALUES (\(dialect.placeholders(3)))",
                    deleteOwner: "DELETE FROM \(q(join.name)) WHERE owner = \(dialect.placeholder(1))",
                    deleteAll: "DELETE FROM \(q(join.name))",
                    selectAll: "SELECT owner, member FROM \(q(join.name)) ORDER BY owner, position",
                    selectOwner: "SELECT member FROM \(q(join.name)) WHERE owner = \(dialect.placeholder(1)) "
                        + "ORDER BY position")
            }
            let derived = table.derived.map { derived in
                "SELECT \(q(derived.inverseColumn)), \(key) FROM \(q(derived.destinationTable)) "
                    + "WHERE \(q(derived.inverseColumn)) IS NOT NULL ORDER BY \(q(derived.inverseColumn)), \(key)"
            }
            let derivedOne = table.derived.map { derived in
                "SELECT \(key) FROM \(q(derived.destinationTable)) WHERE \(q(derived.inverseColumn)) = "
                    + "\(dialect.placeholder(1)) ORDER BY \(key)"
            }
            let columns = ([key, version] + names).joined(separator: ", ")
            return TableStatements(
                selectAll: "SELECT \(columns) FROM \(q(table.name)) ORDER BY \(key)",
                selectOne: "SELECT \(columns) FROM \(q(table.name)) WHERE \(key) = \(dialect.placeholder(1))",
                insert: "INSERT INTO \(q(table.name)) (\(([key, version] + names).joined(separator: ", "))) "
                    + "VALUES (\(dialect.placeholders(count + 2)))",
                update:
                    "UPDATE \(q(table.name)) SET \((assignments + ["\(version) = \(dialect.placeholder(count + 1))"]).joined(separator: ", ")) "
                    + "WHERE \(key) = \(dialect.placeholder(count + 2)) AND \(version) = \(dialect.placeholder(count + 3))",
                delete: "DELETE FROM \(q(table.name)) WHERE \(key) = \(dialect.placeholder(1))",
                checkedDelete: "DELETE FROM \(q(table.name)) WHERE \(key) = \(dialect.placeholder(1)) AND \(version) = "
                    + dialect.placeholder(2),
                selectVersion: "SELECT \(version) FROM \(q(table.name)) WHERE \(key) = \(dialect.placeholder(1))",
                deleteAll: "DELETE FROM \(q(table.name))",
                joins: joins, derived: derived, derivedOne: derivedOne)
        }
    }
}
