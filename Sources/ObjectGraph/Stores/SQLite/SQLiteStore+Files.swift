import Foundation

extension SQLiteStore {
    /// The first 16 bytes of every SQLite database file.
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// Reads a whole SQLite store file with the model its own schema describes, without opening
    /// a store: for the command-line tool. Reads through SQLite (a write-ahead log is included),
    /// read-only; a file without a log is read without creating any file beside it.
    ///
    /// - Throws: `.unsupportedFormat` for a database that is not a store or a newer format;
    ///   `.corruptStore` for an unreadable schema or row; SQLite's errors, typed.
    static func readFile(at url: URL) throws -> (snapshot: StoreSnapshot, formatVersion: Int) {
        // A file without a write-ahead log has no open connection: read it without creating
        // SQLite's files beside it. With a log, read through it (SQLite needs its shared memory).
        let hasLog = FileManager.default.fileExists(atPath: url.path + "-wal")
        let connection = try SQLiteConnection(
            url: url, readOnly: true, create: false, busyTimeout: .seconds(5), immutable: !hasLog)
        defer { connection.close() }
        return try connection.readTransaction {
            guard
                try !connection.rows(connection.dialect.tableExistsQuery, [.text(SQLStoreSchema.metadataTable)])
                    .isEmpty
            else { throw PersistenceError.notAStore(url, expected: "an ObjectGraph SQLite store") }
            let entities = try SQLStoreSchema.storedEntities(connection, url: url)
            let model: ManagedObjectModel
            do {
                model = try ManagedObjectModel(entities: entities)
            } catch let error as PersistenceError {
                throw PersistenceError.invalidStoredSchema(url, error)
            }
            let schema = try SQLStoreSchema(model: model)
            let snapshot = try schema.readSnapshot(
                connection, statements: schema.statements(connection.dialect), url: url)
            return (snapshot, try SQLStoreSchema.storedFormatVersion(connection) ?? SQLStoreSchema.formatVersion)
        }
    }

    /// Writes `snapshot` as a new SQLite store file at `url`: into a temporary file beside it in
    /// one transaction, then renamed over `url` (whose write-ahead log and shared-memory files,
    /// if any, are removed first), so `url` is never half-written.
    ///
    /// - Returns: The new file's size in bytes.
    /// - Throws: `.storeLocked` if `url` has a write-ahead log (a container may have it open);
    ///   `.ioFailure` if the file cannot be written.
    static func writeFile(_ snapshot: StoreSnapshot, to url: URL) throws -> Int {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".objectgraph-tmp-\(UUID().uuidString).sqlite")
        let files = FileManager.default
        let wal = url.path + "-wal"
        if let size = (try? files.attributesOfItem(atPath: wal))?[.size] as? Int, size > 0 {
            throw PersistenceError.storeLocked(url)
        }
        do {
            let connection = try SQLiteConnection(url: temporary, readOnly: false, create: true, busyTimeout: .zero)
            defer { connection.close() }
            let schema = try SQLStoreSchema(model: snapshot.model)
            var written = SQLStoreSchema.WrittenState()
            var records: [StoreRecord] = []
            for info in snapshot.model.infos { snapshot.forEachRecord(ofEntity: info.name) { records.append($0) } }
            try connection.execute("PRAGMA journal_mode=WAL")
            try connection.execute("PRAGMA synchronous=FULL")
            try connection.writeTransaction {
                try schema.prepare(connection, url: url, create: true)
                _ = try schema.write(
                    StoreChangeSet(inserted: records, updated: [], deleted: [], snapshot: snapshot), to: connection,
                    statements: schema.statements(connection.dialect), url: url, written: &written)
            }
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            try? files.removeItem(at: temporary)
            throw error
        }
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: url.path + suffix) }
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: temporary.path + suffix) }
        do {
            try POSIXFileSystem().rename(temporary.path, to: url.path)
        } catch {
            try? files.removeItem(at: temporary)
            throw error
        }
        try AtomicFile(fileSystem: POSIXFileSystem(), path: url.path).synchronizeDirectory()
        return ((try? files.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    /// Rewrites the SQLite store file at `url` compactly in place (`VACUUM`, after folding its
    /// write-ahead log into it).
    ///
    /// - Returns: The file's size afterwards.
    /// - Throws: `.storeLocked` if another connection holds it; SQLite's errors, typed.
    static func vacuumFile(at url: URL) throws -> Int {
        let connection = try SQLiteConnection(url: url, readOnly: false, create: false, busyTimeout: .seconds(1))
        defer { connection.close() }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try connection.execute("VACUUM")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}
