import ObjectGraph

extension PostgresStore {
    /// Removes the store kept in the PostgreSQL schema `schema` of the database `configuration`
    /// reaches: the schema with every table in it, and its migration backup
    /// (``backupSchema(for:)``), in one transaction. Nothing happens if the schema does not exist;
    /// a schema holding tables but no store is refused. Containers still open on the store get
    /// errors from their next fetch or save.
    ///
    /// For example:
    /// ```swift
    /// try PostgresStore.destroy(configuration: configuration, schema: "inventory")
    /// ```
    ///
    /// - Throws: `.unsupportedFormat` for a schema that is not a store's; `.storeLocked` if a
    ///   session holds a lock on one of its tables longer than `lockTimeout`; `.ioFailure` if the
    ///   server cannot be reached.
    ///
    /// Core Data: `NSPersistentStoreCoordinator.destroyPersistentStore(at:type:options:)`.
    public static func destroy(
        configuration: PostgresConfiguration, schema: String, lockTimeout: Duration = .seconds(5)
    ) throws {
        let connection = try PostgresConnection(configuration: configuration)
        defer { connection.close() }
        let q = connection.dialect.quote
        try connection.execute("SET lock_timeout = \(max(1, milliseconds(lockTimeout)))")
        try connection.writeTransaction {
            let tables = try connection.rows(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [.text(schema)]
            ).compactMap { $0.first?.text }
            guard tables.isEmpty || tables.contains("objectgraph.metadata") else {
                throw PersistenceError.postgresSchemaIsNotAStore(schema, server: configuration.description)
            }
            try connection.execute("DROP SCHEMA IF EXISTS \(q(schema)) CASCADE")
            let backup = backupSchema(for: schema)
            let marker = try connection.rows(
                "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = $1", [.text(backup)])
            if marker.first?.first?.text == backupMarker(for: schema) {
                try connection.execute("DROP SCHEMA \(q(backup)) CASCADE")
            }
        }
    }
}
