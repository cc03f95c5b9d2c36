import ObjectGraph

extension PostgresStore {
    /// The PostgreSQL schema that keeps a store's tables as they were before its last migration,
    /// when its ``migration`` options keep a backup: the store's schema name followed by
    /// `_og_backup` (a name of a stable hash when that is longer than PostgreSQL's 63 bytes).
    ///
    /// For example:
    /// ```swift
    /// PostgresStore.backupSchema(for: "inventory")  // "inventory_og_backup"
    /// ```
    ///
    /// Core Data: none; the nearest is the copy `NSPersistentStoreCoordinator` migration leaves
    /// beside a migrated SQLite file.
    public static func backupSchema(for schema: String) -> String {
        let name = schema + "_og_backup"
        return name.utf8.count <= 63 ? name : PostgresStoreState.channel(schema) + "_og_backup"
    }

    /// Copies every table of the schema `namespace` (columns, indexes and rows) into
    /// ``backupSchema(for:)``, inside the
    /// migration's transaction (so the copy is the state it migrates, and a failed migration
    /// leaves no backup). A backup schema from an earlier migration is replaced; a schema of that
    /// name that ObjectGraph did not make is refused.
    ///
    /// - Throws: `.unsupportedFormat` if the backup schema exists and is not a backup; the
    ///   server's errors.
    func backUp(_ namespace: String, on connection: PostgresConnection) throws {
        let backup = Self.backupSchema(for: namespace)
        let q = connection.dialect.quote
        let marker = Self.backupMarker(for: namespace)
        let existing = try connection.rows(
            "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = $1", [.text(backup)])
        if let row = existing.first {
            guard row.first?.text == marker else {
                throw PersistenceError.postgresBackupSchemaTaken(backup, server: server)
            }
            try connection.execute("DROP SCHEMA \(q(backup)) CASCADE")
        }
        try connection.execute("CREATE SCHEMA \(q(backup))")
        try connection.execute("COMMENT ON SCHEMA \(q(backup)) IS \(Self.literal(marker))")
        let tables = try connection.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' "
                + "ORDER BY table_name", [.text(namespace)])
        for name in tables.compactMap({ $0.first?.text }) {
            let (copy, original) = ("\(q(backup)).\(q(name))", "\(q(namespace)).\(q(name))")
            try connection.execute("CREATE TABLE \(copy) (LIKE \(original) INCLUDING ALL)")
            try connection.execute("INSERT INTO \(copy) OVERRIDING SYSTEM VALUE SELECT * FROM \(original)")
        }
    }

    /// The comment that marks the backup schema of the store in `schema` as one.
    static func backupMarker(for schema: String) -> String { "ObjectGraph backup of " + schema }

    /// `text` as a SQL string literal (for statements that take no parameters, as `COMMENT`).
    private static func literal(_ text: String) -> String {
        "'" + String(text.flatMap { $0 == "'" ? ["'", "'"] : [$0] }) + "'"
    }
}
