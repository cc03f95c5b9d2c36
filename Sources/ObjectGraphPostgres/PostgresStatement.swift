import CLibPQ
import ObjectGraph

/// A statement of a ``PostgresConnection``: prepared on the server when it first runs, once for
/// each combination of parameter types it is run with (a `NULL` takes its type from where it
/// stands), and run with `PQexecPrepared` in the binary format.
///
/// A run reads all its rows at once (libpq's default), so a query may run other statements on
/// the connection while its rows are read; page large results with `LIMIT`.
final class PostgresStatement: SQLStatement {
    let sql: String
    private unowned let connection: PostgresConnection
    /// The server-side statement for each list of parameter types, and how many parameters it has.
    private var prepared: [[UInt32]: (name: String, parameterCount: Int)] = [:]
    /// The bound values: `$1` at 0. Parameters not bound are `NULL`.
    private var bindings: [SQLValue] = []
    // The result of the current run, owned by this statement and cleared in `reset()`.
    private var result: OpaquePointer?
    private var row = -1
    private var rowCount = 0

    init(sql: String, connection: PostgresConnection) {
        self.sql = sql
        self.connection = connection
    }

    deinit { forget() }

    func bind(_ value: SQLValue, at index: Int) throws {
        guard (1...65_535).contains(index) else { throw PersistenceError.postgresParameterIndex(index) }
        if bindings.count < index { bindings += repeatElement(.null, count: index - bindings.count) }
        bindings[index - 1] = value
    }

    func step() throws -> Bool {
        if result == nil {
            let current = try execute()
            result = current
            rowCount = Int(PQntuples(current))
            row = -1
        }
        if row < rowCount { row += 1 }
        return row < rowCount
    }

    var columnCount: Int { result.map { Int(PQnfields($0)) } ?? 0 }

    func column(_ index: Int) -> SQLValue {
        guard let result, row >= 0, row < rowCount, index >= 0, index < Int(PQnfields(result)) else { return .null }
        let (row, column) = (Int32(row), Int32(index))
        if PQgetisnull(result, row, column) != 0 { return .null }
        let count = Int(PQgetlength(result, row, column))
        // The value's bytes belong to `result`, which outlives this call; they are copied out here.
        let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: count)
        return PostgresBinaryFormat.decode(bytes, type: PQftype(result, column))
    }

    func reset() {
        PQclear(result)
        result = nil
        row = -1
        rowCount = 0
        bindings = []
    }

    /// Frees the current result; the server-side statements end with the session.
    func forget() {
        reset()
        prepared = [:]
    }

    /// Runs the statement with its bindings, preparing it first for their types.
    private func execute() throws -> OpaquePointer {
        let types = bindings.map { PostgresBinaryFormat.type(of: $0) }
        let statement = try prepare(types)
        var values = bindings
        if values.count < statement.parameterCount {
            values += repeatElement(.null, count: statement.parameterCount - values.count)
        }
        var buffer: [UInt8] = []
        var starts: [Int?] = []
        var lengths: [Int32] = []
        for value in values {
            let start = buffer.count
            guard PostgresBinaryFormat.encode(value, into: &buffer) else {
                starts.append(nil)
                lengths.append(0)
                continue
            }
            let length = buffer.count - start
            guard length < 1 << 30 else {
                throw PersistenceError.postgresValueTooLarge(byteCount: length, server: connection.server)
            }
            starts.append(start)
            lengths.append(Int32(length))
        }
        // Every present value needs a non-null pointer, also an empty one: keep the buffer non-empty.
        buffer.append(0)
        let formats = [Int32](repeating: 1, count: values.count)
        return try connection.perform("running \(sql.prefix(60))") { handle in
            buffer.withUnsafeBytes { bytes in
                // libpq reads the parameters as `const char *`; the bytes stay alive for the call.
                let pointers = starts.map { start in
                    start.map { bytes.baseAddress!.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
                }
                return PQexecPrepared(handle, statement.name, Int32(values.count), pointers, lengths, formats, 1)
            }
        }
    }

    /// The server-side statement for parameters of `types`, prepared (and described, for its
    /// parameter count) on first use.
    private func prepare(_ types: [UInt32]) throws -> (name: String, parameterCount: Int) {
        if let statement = prepared[types] { return statement }
        let name = connection.nextStatementName()
        let operation = "preparing \(sql.prefix(60))"
        PQclear(try connection.perform(operation) { PQprepare($0, name, sql, Int32(types.count), types) })
        let description = try connection.perform(operation) { PQdescribePrepared($0, name) }
        defer { PQclear(description) }
        let statement = (name: name, parameterCount: Int(PQnparams(description)))
        prepared[types] = statement
        return statement
    }
}
