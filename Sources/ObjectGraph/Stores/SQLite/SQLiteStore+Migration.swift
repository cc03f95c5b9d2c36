import Foundation

extension SQLiteStore: SchemaMigratingStore {
    /// Copies the file's committed state to `destination` (a migration's backup) through a
    /// second connection: SQLite cannot copy from a connection in a write transaction, and the
    /// migration's transaction holds the write lock, so the copy is the state it migrates.
    func copyCommittedFile(to destination: URL) throws {
        let reader = try SQLiteConnection(url: url, readOnly: true, create: false, busyTimeout: busyTimeout)
        defer { reader.close() }
        try reader.copy(to: destination)
    }
}
