import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A connection to a SQLite database file: the ``SQLDatabase`` of ``SQLiteStore``.
///
/// Used by one thread at a time (its store holds it inside a `Locked`). Statements are prepared
/// once and cached by their text; `close()` finalizes them and closes the handle.
final class SQLiteConnection: SQLDatabase {
    let url: URL
    let dialect = SQLDialect.sqlite
    // A C handle owned by this connection, closed once in `close()`.
    private(set) var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens (and with `create`, creates) the database at `url`.
    ///
    /// - Throws: `.ioFailure` if the file cannot be opened, `.corruptStore` if it is not a
    ///   database, `.storeLocked` if it stays busy longer than `busyTimeout`.
    ///
    /// With `immutable` (read-only only), SQLite is told the file cannot change: it takes no lock
    /// and creates no shared-memory or log file beside it, so reading leaves the directory as it
    /// was. Use it only for a file no connection has open (one without a write-ahead log).
    init(url: URL, readOnly: Bool, create: Bool, busyTimeout: Duration, immutable: Bool = false) throws {
        self.url = url
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        var name = url.path
        if immutable && readOnly {
            flags |= SQLITE_OPEN_URI
            name = URL(fileURLWithPath: url.path).absoluteString + "?immutable=1"
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(name, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw PersistenceError.sqlite(code, message: message, operation: "opening it", url: url)
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        let milliseconds =
            busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(opened, Int32(clamping: milliseconds))
    }

    deinit { close() }

    func execute(_ sql: String) throws {
        guard let handle else { throw PersistenceError.storeClosed(url) }
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, "running \(sql.prefix(60))") }
    }

    func statement(_ sql: String) throws -> any SQLStatement {
        if let cached = cache[sql] { return cached }
        guard let handle else { throw PersistenceError.storeClosed(url) }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(code, "preparing \(sql.prefix(60))") }
        let statement = SQLiteStatement(handle: prepared, connection: self)
        cache[sql] = statement
        return statement
    }

    /// SQLite's `PRAGMA data_version`: changes whenever another connection (in this process or
    /// another) commits to the file, and never for this connection's own commits.
    func dataVersion() throws -> Int64 {
        try rows("PRAGMA data_version").first?.first?.integer ?? 0
    }

    var changedRowCount: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    func beginWriteTransaction() throws { try execute("BEGIN IMMEDIATE") }

    func beginReadTransaction() throws { try execute("BEGIN DEFERRED") }

    func commit() throws { try execute("COMMIT") }

    func rollback() {
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    func close() {
        for statement in cache.values { statement.finalize() }
        cache = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Copies the database's committed state into the database file at `destination`,
    /// replacing what that file held, with SQLite's online backup (which cannot read through a
    /// connection in a write transaction): the copy is written in a transaction of its own, so a
    /// crash leaves the destination's old contents or the whole copy.
    ///
    /// - Throws: `.ioFailure` if the destination cannot be written; SQLite's errors, typed.
    func copy(to destination: URL) throws {
        guard let handle else { throw PersistenceError.storeClosed(url) }
        let target = try SQLiteConnection(url: destination, readOnly: false, create: true, busyTimeout: .seconds(5))
        defer { target.close() }
        guard let targetHandle = target.handle else { throw PersistenceError.storeClosed(destination) }
        guard let backup = sqlite3_backup_init(targetHandle, "main", handle, "main") else {
            throw target.error(sqlite3_errcode(targetHandle), "starting the backup")
        }
        let code = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw target.error(code, "writing the backup") }
    }

    /// The typed error for a failed call with result `code`, with SQLite's message.
    func error(_ code: Int32, _ operation: String) -> PersistenceError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the connection is closed"
        return PersistenceError.sqlite(code, message: message, operation: operation, url: url)
    }
}

/// A prepared statement of a ``SQLiteConnection``.
final class SQLiteStatement: SQLStatement {
    // The C statement, finalized by its connection's `close()`.
    private var handle: OpaquePointer?
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    /// SQLite copies bound text and blobs before the call returns (`SQLITE_TRANSIENT`, whose C
    /// definition is the destructor pointer -1 and so is not imported).
    static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }

    func bind(_ value: SQLValue, at index: Int) throws {
        guard let handle else { throw PersistenceError.storeClosed(connection.url) }
        let position = Int32(index)
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, position)
        case .integer(let number): code = sqlite3_bind_int64(handle, position, number)
        case .real(let number): code = sqlite3_bind_double(handle, position, number)
        case .text(let text) where text.isEmpty:
            // An empty string must not bind a null pointer, which SQLite reads as NULL.
            code = sqlite3_bind_text64(handle, position, "", 0, Self.transient, UInt8(SQLITE_UTF8))
        case .text(var text):
            code = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    sqlite3_bind_text64(
                        handle, position, chars.baseAddress, UInt64(chars.count), Self.transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            // An empty blob is a zero-length blob, not NULL.
            code =
                bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, position, 0)
                : bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(handle, position, $0.baseAddress, UInt64($0.count), Self.transient)
                }
        }
        guard code == SQLITE_OK else { throw connection.error(code, "binding a value") }
    }

    func step() throws -> Bool {
        guard let handle else { throw PersistenceError.storeClosed(connection.url) }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code, "running a statement")
            sqlite3_reset(handle)
            throw error
        }
    }

    var columnCount: Int { handle.map { Int(sqlite3_column_count($0)) } ?? 0 }

    func column(_ index: Int) -> SQLValue {
        guard let handle else { return .null }
        let position = Int32(index)
        switch sqlite3_column_type(handle, position) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, position))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, position))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, position))
            guard let bytes = sqlite3_column_text(handle, position) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, position))
            guard count > 0, let bytes = sqlite3_column_blob(handle, position) else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    func reset() {
        guard let handle else { return }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }
}
