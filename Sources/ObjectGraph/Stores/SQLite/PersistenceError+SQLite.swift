import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension PersistenceError {
    /// A failed SQLite call on the database at `url`, typed by SQLite's result code.
    ///
    /// Busy and locked become `.storeLocked`, corruption and "not a database" `.corruptStore`,
    /// a full disk, I/O errors and files that cannot be opened `.ioFailure`, constraint
    /// violations `.conflict`, a read-only database `.readOnlyStore`; anything else `.ioFailure`.
    static func sqlite(_ code: Int32, message: String, operation: String, url: URL) -> PersistenceError {
        let detail = "SQLite error \(code): \(excerpt(message, limit: 300))"
        let path = url.path
        let failure: (Code, String)
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            failure = (
                .storeLocked,
                "The store \(path) is locked by another connection or process (\(detail)) while \(operation). "
                    + "Nothing was changed: try again, or raise the store's busy timeout."
            )
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            failure = (
                .corruptStore,
                "The store file \(path) is damaged or not a SQLite database (\(detail)) while \(operation). "
                    + "Restore it from a backup, or check it with `objectgraph verify`."
            )
        case SQLITE_FULL:
            failure = (
                .ioFailure,
                "The disk holding \(path) is full (\(detail)) while \(operation). Nothing was saved: free space "
                    + "and save again."
            )
        case SQLITE_CONSTRAINT:
            failure = (
                .conflict,
                "A save to \(path) breaks a constraint of the stored data (\(detail)), most likely a uniqueness "
                    + "constraint another process's save now takes. Nothing was saved: fetch again and resolve it."
            )
        case SQLITE_READONLY:
            failure = (
                .readOnlyStore,
                "The store \(path) cannot be written (\(detail)) while \(operation). Check the permissions of the "
                    + "file and its directory, or open it with isReadOnly."
            )
        case SQLITE_CANTOPEN:
            failure = (
                .ioFailure,
                "The store \(path) cannot be opened (\(detail)). Check that its directory exists and is writable."
            )
        default:
            failure = (
                .ioFailure,
                "SQLite failed while \(operation) on \(path) (\(detail)). Check that the disk has space and the "
                    + "file and its directory are writable."
            )
        }
        return PersistenceError(code: failure.0, message: failure.1, fileURL: url)
    }
}
