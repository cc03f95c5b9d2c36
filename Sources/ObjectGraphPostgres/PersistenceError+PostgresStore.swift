import ObjectGraph

extension PersistenceError {
    /// Whether the error is a lost connection to the server (the session must be replaced).
    var isConnectionLost: Bool { (underlying as? PostgresError)?.isConnectionLost == true }

    /// A second `load` of a PostgreSQL store instance that is open.
    static func postgresStoreInUse(server: String) -> PersistenceError {
        PersistenceError(
            code: .storeLocked,
            message: "The PostgreSQL store \(server) is already open in another container. Close that container "
                + "(let it and its contexts go), or give each container its own PostgresStore instance.")
    }

    /// A call on a PostgreSQL store that is not open.
    static func postgresStoreClosed(server: String) -> PersistenceError {
        PersistenceError(
            code: .storeClosed,
            message: "The PostgreSQL store \(server) is closed. Open it in a container before using it.")
    }

    /// A save to a PostgreSQL store opened read-only.
    static func postgresReadOnlyStore(server: String) -> PersistenceError {
        PersistenceError(
            code: .readOnlyStore,
            message: "The PostgreSQL store \(server) was opened read-only, so nothing was saved. Open it without "
                + "isReadOnly to change it, or discard the context's changes with rollback().")
    }
}

extension PersistenceError {
    /// A migration that keeps a backup, when the backup schema's name is taken by a schema that
    /// is not an ObjectGraph backup.
    static func postgresBackupSchemaTaken(_ backup: String, server: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "The PostgreSQL store \(server) was not migrated: the schema \(backup), where its backup goes, "
                + "exists and is not an ObjectGraph backup. Rename or drop that schema, or migrate without "
                + "keepsBackup.")
    }
}

extension PersistenceError {
    /// `PostgresStore.destroy` of a schema that holds tables but no store.
    static func postgresSchemaIsNotAStore(_ schema: String, server: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "The PostgreSQL schema \(schema) on \(server) holds tables but no ObjectGraph store, so it was "
                + "not dropped. Check the schema name; drop it yourself if it is to go.")
    }
}
