import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension SQLiteConnection: SQLFunctionRegistering {
    /// Installs `body` as the scalar SQL function `name` (`sqlite3_create_function_v2`): the
    /// closure is retained by the connection until the function is replaced or the connection
    /// closes, when SQLite calls the destroy callback that releases it.
    func createFunction(
        name: String, argumentCount: Int, deterministic: Bool, _ body: @escaping ([SQLValue]) -> SQLValue
    ) throws {
        guard let handle else { throw PersistenceError.storeClosed(url) }
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        // The box's reference is owned by SQLite from here on: released by `destroyFunctionBox`
        // (which SQLite also calls when the registration fails).
        let box = Unmanaged.passRetained(SQLiteFunctionBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, Int32(argumentCount), flags, box, callSQLiteFunction, nil, nil, destroySQLiteFunctionBox)
        guard code == SQLITE_OK else { throw error(code, "installing the SQL function \(name)") }
    }

    /// Installs `order` as the collation `name` (`sqlite3_create_collation_v2`), retained like a
    /// function's closure.
    func createCollation(name: String, _ order: @escaping (String, String) -> Int) throws {
        guard let handle else { throw PersistenceError.storeClosed(url) }
        // Owned by SQLite from here on, released by `destroySQLiteCollationBox`.
        let box = Unmanaged.passRetained(SQLiteCollationBox(order)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box, compareWithSQLiteCollation, destroySQLiteCollationBox)
        guard code == SQLITE_OK else {
            // Unlike a function's, a failed collation's destroy callback is not called.
            Unmanaged<SQLiteCollationBox>.fromOpaque(box).release()
            throw error(code, "installing the SQL collation \(name)")
        }
    }
}

/// The Swift closure behind one collation, used on its connection's thread only.
private final class SQLiteCollationBox {
    let order: (String, String) -> Int
    init(_ order: @escaping (String, String) -> Int) { self.order = order }
}

/// SQLite's call of a collation: the two strings as UTF-8 buffers (not NUL-terminated).
private func compareWithSQLiteCollation(
    _ pointer: UnsafeMutableRawPointer?, _ leftCount: Int32, _ left: UnsafeRawPointer?, _ rightCount: Int32,
    _ right: UnsafeRawPointer?
) -> Int32 {
    // The box passed retained at registration, alive until the destroy callback.
    guard let pointer else { return 0 }
    let box = Unmanaged<SQLiteCollationBox>.fromOpaque(pointer).takeUnretainedValue()
    func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
        guard let bytes, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
    }
    let order = box.order(text(left, leftCount), text(right, rightCount))
    return order < 0 ? -1 : (order > 0 ? 1 : 0)
}

/// Releases the collation's box.
private func destroySQLiteCollationBox(_ pointer: UnsafeMutableRawPointer?) {
    // Balances the `passRetained` of `createCollation`.
    guard let pointer else { return }
    Unmanaged<SQLiteCollationBox>.fromOpaque(pointer).release()
}

/// The Swift closure behind one SQL function. Used only on its connection's thread (SQLite calls
/// it from inside `sqlite3_step` of that connection, which its store serialises).
private final class SQLiteFunctionBox {
    let body: ([SQLValue]) -> SQLValue
    init(_ body: @escaping ([SQLValue]) -> SQLValue) { self.body = body }
}

/// SQLite's call of a function: reads the arguments, runs the box's closure, sets the result.
private func callSQLiteFunction(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
    // The user-data pointer is the box passed retained to `sqlite3_create_function_v2`; SQLite
    // keeps it alive until the destroy callback, after every call.
    guard let context, let pointer = sqlite3_user_data(context) else { return }
    let box = Unmanaged<SQLiteFunctionBox>.fromOpaque(pointer).takeUnretainedValue()
    var values: [SQLValue] = []
    values.reserveCapacity(Int(count))
    for index in 0..<Int(count) { values.append(sqliteValue(arguments?[index])) }
    switch box.body(values) {
    case .null: sqlite3_result_null(context)
    case .integer(let number): sqlite3_result_int64(context, number)
    case .real(let number): sqlite3_result_double(context, number)
    case .text(let text) where text.isEmpty:
        // An empty string must not pass a null pointer, which SQLite reads as NULL.
        sqlite3_result_text64(context, "", 0, SQLiteStatement.transient, UInt8(SQLITE_UTF8))
    case .text(var text):
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_result_text64(
                    context, chars.baseAddress, UInt64(chars.count), SQLiteStatement.transient, UInt8(SQLITE_UTF8))
            }
        }
    case .blob(let bytes):
        if bytes.isEmpty {
            sqlite3_result_zeroblob(context, 0)
        } else {
            bytes.withUnsafeBytes {
                sqlite3_result_blob64(context, $0.baseAddress, UInt64($0.count), SQLiteStatement.transient)
            }
        }
    }
}

/// Releases the box retained at registration.
private func destroySQLiteFunctionBox(_ pointer: UnsafeMutableRawPointer?) {
    // Balances the `passRetained` of `createFunction`; SQLite calls this once per registration.
    guard let pointer else { return }
    Unmanaged<SQLiteFunctionBox>.fromOpaque(pointer).release()
}

/// One argument of a function call as a ``SQLValue``.
private func sqliteValue(_ value: OpaquePointer?) -> SQLValue {
    guard let value else { return .null }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
        let count = Int(sqlite3_value_bytes(value))
        guard let bytes = sqlite3_value_text(value) else { return .text("") }
        return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    case SQLITE_BLOB:
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let bytes = sqlite3_value_blob(value) else { return .blob([]) }
        return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
}
