import Foundation
import GRDBSQLite

/// SQLite's C API with nothing on top: the engine under GRDB's record layer, the reference to
/// beat (issue 24). One connection; statements are prepared once and reset between uses.
final class RawDatabase {
    let handle: OpaquePointer

    /// Opens `path` (`":memory:"` for an in-memory database).
    init(_ path: String = ":memory:") {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(code == SQLITE_OK, "sqlite3_open_v2 \(path): \(code)")
        self.handle = handle!
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        precondition(code == SQLITE_OK, "\(sql): \(message.map { String(cString: $0) } ?? "\(code)")")
    }

    func prepare(_ sql: String) -> RawStatement { RawStatement(self, sql) }

    /// The rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in one transaction.
    func transaction<T>(_ body: () throws -> T) rethrows -> T {
        execute("BEGIN")
        let result = try body()
        execute("COMMIT")
        return result
    }
}

/// One prepared statement.
final class RawStatement {
    let handle: OpaquePointer
    let database: RawDatabase

    init(_ database: RawDatabase, _ sql: String) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        precondition(code == SQLITE_OK, "prepare \(sql): \(String(cString: sqlite3_errmsg(database.handle)))")
        self.handle = handle!
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bind(_ index: Int32, _ value: String) {
        // SQLITE_TRANSIENT: SQLite copies the text.
        sqlite3_bind_text(handle, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
    func bind(_ index: Int32, _ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes in
            _ = sqlite3_bind_blob(
                handle, index, bytes.baseAddress, Int32(bytes.count),
                unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Steps once: whether a row is available.
    @discardableResult
    func step() -> Bool {
        let code = sqlite3_step(handle)
        precondition(
            code == SQLITE_ROW || code == SQLITE_DONE, "step: \(String(cString: sqlite3_errmsg(database.handle)))")
        return code == SQLITE_ROW
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(_ column: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    func uuid(_ column: Int32) -> UUID {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if let bytes = sqlite3_column_blob(handle, column), sqlite3_column_bytes(handle, column) == 16 {
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
        }
        return UUID(uuid: value)
    }

    /// Runs a statement whose first column of its one row is an integer (a count).
    func scalar() -> Int64 {
        defer { sqlite3_reset(handle) }
        precondition(step(), "no row")
        return int64(0)
    }
}

/// The row the raw side reads: the same fields as `GRDBItem` (dates stored as
/// `timeIntervalSinceReferenceDate`, UUIDs as 16-byte blobs).
struct RawItem {
    var id: Int64
    var name: String
    var price: Int64
    var weight: Double
    var createdAt: Date
    var uuid: UUID

    static let createTable = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL,
        weight REAL NOT NULL, createdAt REAL NOT NULL, uuid BLOB NOT NULL)
        """
    static let selectAll = "SELECT id, name, price, weight, createdAt, uuid FROM item"

    init(_ statement: RawStatement) {
        id = statement.int64(0)
        name = statement.text(1)
        price = statement.int64(2)
        weight = statement.double(3)
        createdAt = Date(timeIntervalSinceReferenceDate: statement.double(4))
        uuid = statement.uuid(5)
    }

    /// Every row `statement` (a `selectAll`) returns.
    static func fetchAll(_ statement: RawStatement) -> [RawItem] {
        var items: [RawItem] = []
        while statement.step() { items.append(RawItem(statement)) }
        statement.reset()
        return items
    }

    /// Inserts `inputs` with one prepared statement (in the caller's transaction).
    static func insert(_ database: RawDatabase, _ inputs: [Input]) {
        let statement = database.prepare(
            "INSERT INTO item (name, price, weight, createdAt, uuid) VALUES (?, ?, ?, ?, ?)")
        for input in inputs {
            statement.bind(1, input.name)
            statement.bind(2, input.price)
            statement.bind(3, input.weight)
            statement.bind(4, input.createdAt.timeIntervalSinceReferenceDate)
            statement.bind(5, input.uuid)
            statement.step()
            sqlite3_reset(statement.handle)
        }
    }
}

/// A raw SQLite file in WAL mode with `synchronous=FULL`, as `openPool` makes GRDB's.
func openRawFile(_ path: String) -> RawDatabase {
    let database = RawDatabase(path)
    database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    return database
}
