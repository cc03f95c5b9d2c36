import CLibPQ
import Foundation
import ObjectGraph

/// A connection to a PostgreSQL server over libpq: the ``SQLDatabase`` of the PostgreSQL store.
///
/// Used by one thread at a time (a ``PostgresConnectionPool`` lends it to one caller at a time).
/// Statements are prepared on the server once per parameter types and cached by their text;
/// values travel in PostgreSQL's binary format, so doubles keep every bit. `close()` ends the
/// session, which frees its prepared statements on the server.
package final class PostgresConnection: SQLDatabase {
    package let configuration: PostgresConfiguration
    package let dialect = SQLDialect.postgreSQL
    // libpq's connection, owned by this object and finished once in `close()`.
    private(set) var handle: OpaquePointer?
    private var cache: [String: PostgresStatement] = [:]
    private var preparedCount = 0
    package private(set) var changedRowCount = 0

    /// Connects to the server `configuration` names, and applies its statement timeout.
    ///
    /// - Throws: `.ioFailure` if the server cannot be reached, refuses the user or database, or
    ///   has no free connection; `.unsupportedFormat` for a parameter libpq cannot take.
    package init(configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        let parameters = try configuration.connectionParameters()
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        // strdup'd copies live until the call returns; both arrays end with the NULL libpq expects.
        defer { (keywords + values).forEach { free($0) } }
        let connection = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 0)
            }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { String(cString: PQerrorMessage($0)) } ?? "libpq ran out of memory"
            PQfinish(connection)
            throw PersistenceError.postgresConnectionFailed(server: configuration.description, reason: reason)
        }
        handle = connection
        // Notices (such as "there is no transaction in progress") are the caller's to ignore,
        // not libpq's to print on standard error.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        if let timeout = configuration.statementTimeout {
            let milliseconds = max(
                1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            try execute("SET statement_timeout = \(milliseconds)")
        }
    }

    deinit { close() }

    /// The server as messages name it.
    var server: String { configuration.description }

    /// The process ID of the server process serving this connection (`pg_backend_pid()`).
    package var backendProcessID: Int32 { handle.map(PQbackendPID) ?? 0 }

    /// Whether the connection is still usable: open, and not dropped by the server (reads what
    /// the server sent, without waiting).
    package var isUsable: Bool {
        guard let handle else { return false }
        // A dropped connection's socket is readable: first the server's goodbye, then its end.
        var reads = 0
        while reads < 8, PQstatus(handle) == CONNECTION_OK, Self.isReadable(PQsocket(handle)) {
            if PQconsumeInput(handle) == 0 { break }
            reads += 1
        }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Whether `socket` has data (or its end) to read, without waiting.
    static func isReadable(_ socket: Int32, waitingUpTo milliseconds: Int32 = 0) -> Bool {
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Whether a transaction is open (or failed and not yet rolled back).
    package var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    package func execute(_ sql: String) throws {
        let result = try perform("running \(sql.prefix(60))") { PQexec($0, sql) }
        PQclear(result)
    }

    package func statement(_ sql: String) throws -> any SQLStatement {
        if let cached = cache[sql] { return cached }
        guard handle != nil else { throw PersistenceError.postgresConnectionClosed(server: server) }
        let statement = PostgresStatement(sql: sql, connection: self)
        cache[sql] = statement
        return statement
    }

    /// The name of the advisory lock every write transaction takes (`pg_advisory_xact_lock`),
    /// so that the writers of one store run one at a time; `nil` for none.
    package var writeLockName: String?

    /// `BEGIN` at READ COMMITTED: each `UPDATE … WHERE version = $n` sees the latest committed
    /// row, so a version check cannot pass on a row another server has changed. Then takes the
    /// ``writeLockName`` advisory lock, held until the transaction ends (if it cannot, the
    /// transaction is rolled back and the error thrown).
    package func beginWriteTransaction() throws {
        try begin(.readCommitted, readOnly: false)
        guard let writeLockName else { return }
        do {
            try run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text(writeLockName)])
        } catch {
            rollback()
            throw error
        }
    }

    /// `BEGIN` at REPEATABLE READ, read-only: every query of the transaction sees one snapshot.
    package func beginReadTransaction() throws { try begin(.repeatableRead, readOnly: true) }

    /// Starts a transaction at `isolation`, read-only if `readOnly`.
    package func begin(_ isolation: PostgresIsolationLevel, readOnly: Bool) throws {
        try execute("BEGIN ISOLATION LEVEL \(isolation.sql)\(readOnly ? " READ ONLY" : "")")
    }

    /// `COMMIT`; a transaction that failed before is rolled back by the server and throws.
    package func commit() throws {
        let result = try perform("committing", committing: true) { PQexec($0, "COMMIT") }
        defer { PQclear(result) }
        guard String(cString: PQcmdStatus(result)) == "COMMIT" else {
            throw PersistenceError.postgresTransactionAborted(server: server)
        }
    }

    package func rollback() {
        guard let handle, isInTransaction else { return }
        PQclear(PQexec(handle, "ROLLBACK"))
    }

    package func close() {
        cache.values.forEach { $0.forget() }
        cache = [:]
        PQfinish(handle)
        handle = nil
    }

    /// A fresh name for a server-side prepared statement of this session.
    func nextStatementName() -> String {
        preparedCount += 1
        return "og\(preparedCount)"
    }

    /// Runs `call` on the open connection and returns its result when it succeeded, or throws
    /// the typed error for it (also when the server dropped the connection).
    func perform(
        _ operation: @autoclosure () -> String, committing: Bool = false, _ call: (OpaquePointer) -> OpaquePointer?
    ) throws -> OpaquePointer {
        guard let handle else { throw PersistenceError.postgresConnectionClosed(server: server) }
        let result = call(handle)
        switch result.map(PQresultStatus) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            recordChanges(result!)
            return result!
        default:
            let error = failure(result)
            PQclear(result)
            throw PersistenceError.postgres(error, operation: operation(), server: server, committing: committing)
        }
    }

    /// What the server (or libpq) said about a failed `result`.
    private func failure(_ result: OpaquePointer?) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let lost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
        let libpqMessage = handle.map { String(cString: PQerrorMessage($0)) } ?? ""
        let message = field("M") ?? libpqMessage.trimmingCharacters(in: .whitespacesAndNewlines)
        let state = field("C") ?? (lost ? PostgresError.connectionFailure : "XX000")
        return PostgresError(
            sqlState: state, message: message, constraintName: field("n"), tableName: field("t"),
            columnName: field("c"))
    }

    /// Keeps the row count of an `INSERT`, `UPDATE`, `DELETE` or `MERGE` (as SQLite's
    /// `changes()` counts only those).
    private func recordChanges(_ result: OpaquePointer) {
        let status = String(cString: PQcmdStatus(result))
        guard ["INSERT", "UPDATE", "DELETE", "MERGE"].contains(where: status.hasPrefix) else { return }
        changedRowCount = Int(String(cString: PQcmdTuples(result))) ?? 0
    }
}
