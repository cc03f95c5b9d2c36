import Foundation
import ObjectGraph

extension PersistenceError {
    /// A failed call to the PostgreSQL `server`, typed by the SQLSTATE class of `error`.
    ///
    /// A lost connection or a server shutting down (`08…`, `57P01`–`57P03`) and a full disk
    /// (`53100`) become `.ioFailure`; a statement timeout or cancel (`57014`) `.timedOut`; a lock
    /// not available (`55P03`) `.storeLocked`; a serialization failure, deadlock or other rolled-back
    /// transaction (`40…`) and integrity violations (`23…`) `.conflict`; a value the column cannot
    /// hold (`22…`) `.typeMismatch`; a read-only transaction or server (`25006`) `.readOnlyStore`;
    /// damaged data (`XX001`, `XX002`) `.corruptStore`; anything else `.ioFailure`. When the
    /// connection was lost while committing, the message says that the outcome is unknown.
    static func postgres(_ error: PostgresError, operation: String, server: String, committing: Bool = false)
        -> PersistenceError
    {
        let detail = "\(error.sqlState): \(excerpt(error.message, limit: 300))"
        let failure: (Code, String)
        switch (error.sqlStateClass, error.sqlState) {
        case _ where error.isConnectionLost:
            let outcome =
                committing
                ? "Whether the commit took effect is unknown: read the rows again before retrying."
                : "The server rolled back the open transaction, if any: nothing of it was saved."
            failure = (
                .ioFailure,
                "The connection to \(server) was lost (\(detail)) while \(operation). \(outcome) "
                    + "Connect again (a pool does this) and try again."
            )
        case (_, "57014"):
            failure = (
                .timedOut,
                "The server cancelled a statement (\(detail)) while \(operation): it ran longer than the "
                    + "statement timeout, or was cancelled. Nothing was changed: try again, or raise statementTimeout."
            )
        case (_, "55P03"):
            failure = (
                .storeLocked,
                "A row or table of \(server) is locked by another connection (\(detail)) while \(operation). "
                    + "Nothing was changed: try again, or raise the lock timeout."
            )
        case ("40", _):
            let what = error.sqlState == "40P01" ? "a deadlock with another transaction" : "a concurrent transaction"
            failure = (
                .conflict,
                "The server rolled back the transaction because of \(what) (\(detail)) while \(operation). "
                    + "Nothing was saved: run the transaction again."
            )
        case ("23", _):
            let constraint = error.constraintName.map { " \"\(excerpt($0))\"" } ?? ""
            failure = (
                .conflict,
                "A change to \(server) breaks the constraint\(constraint) of the stored data (\(detail)), most "
                    + "likely a uniqueness constraint another server's save now takes. Nothing was saved: fetch "
                    + "again and resolve it."
            )
        case ("22", _):
            failure = (
                .typeMismatch,
                "\(server) cannot store a value (\(detail)) while \(operation); for example PostgreSQL text cannot "
                    + "hold a NUL character. Nothing was changed: change the value."
            )
        case (_, "25006"):
            failure = (
                .readOnlyStore,
                "\(server) accepts no writes (\(detail)) while \(operation): the transaction or the server is "
                    + "read-only (a standby?). Connect to the primary server to save."
            )
        case (_, "XX001"), (_, "XX002"):
            failure = (
                .corruptStore,
                "\(server) reports damaged data (\(detail)) while \(operation). Ask its administrator to restore "
                    + "or reindex it."
            )
        case (_, "53100"):
            failure = (
                .ioFailure,
                "The disk of \(server) is full (\(detail)) while \(operation). Nothing was saved: free space and "
                    + "save again."
            )
        default:
            failure = (
                .ioFailure,
                "PostgreSQL failed while \(operation) on \(server) (\(detail)). Check the server's log for the cause."
            )
        }
        return PersistenceError(code: failure.0, message: failure.1, underlying: error)
    }

    /// A connection to `server` that could not be made (refused, no such socket, authentication
    /// failed, no such database, too many connections): libpq's `reason`.
    static func postgresConnectionFailed(server: String, reason: String) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message:
                "Cannot connect to \(server): \(excerpt(reason.trimmingCharacters(in: .whitespacesAndNewlines), limit: 400)). "
                + "Check that the server runs and accepts this user and database, and the URL's host, port and "
                + "password.",
            underlying: PostgresError(sqlState: PostgresError.connectionFailure, message: reason))
    }

    /// A call on a connection (or pool) to `server` after it was closed.
    static func postgresConnectionClosed(server: String) -> PersistenceError {
        PersistenceError(
            code: .storeClosed,
            message: "The connection to \(server) is closed; no more statements can run on it. Open a new one.")
    }

    /// A `COMMIT` that the server answered with `ROLLBACK`: a statement of the transaction had
    /// failed before and its error was not acted on.
    static func postgresTransactionAborted(server: String) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "The transaction on \(server) had failed before it was committed, so the server rolled it "
                + "back. Nothing was saved: find the statement whose error was ignored, and run the transaction "
                + "again.")
    }

    /// A connection URL that libpq cannot parse.
    static func invalidPostgresURL(_ url: String, reason: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "\"\(excerpt(redactingPassword(url)))\" is not a PostgreSQL connection URL (\(excerpt(reason))). "
                + "Write it as postgresql://user@host:port/database, or postgresql://user@/database?host=/socket/dir.")
    }

    /// A connection parameter whose keyword or value holds a NUL character.
    static func invalidPostgresParameter(_ keyword: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "The PostgreSQL connection parameter \"\(excerpt(keyword))\" holds a NUL character, which "
                + "libpq cannot pass. Remove it.",
            key: keyword)
    }

    /// A parameter index outside 1…65535 (PostgreSQL's `$1` to `$65535`).
    static func postgresParameterIndex(_ index: Int) -> PersistenceError {
        PersistenceError(
            code: .outOfRange,
            message: "Parameter $\(index) does not exist: PostgreSQL numbers parameters from $1 to $65535.")
    }

    /// A bound value longer than the PostgreSQL wire protocol carries (a field of at most 1 GB).
    static func postgresValueTooLarge(byteCount: Int, server: String) -> PersistenceError {
        PersistenceError(
            code: .outOfRange,
            message: "A value of \(byteCount) bytes is larger than \(server) accepts in one field (1 GB). Nothing "
                + "was changed: store it in a file and keep its location.")
    }

    /// A pool whose `maximum` connections all stayed in use for `waited`.
    static func postgresPoolTimedOut(server: String, maximum: Int, waited: Duration) -> PersistenceError {
        PersistenceError(
            code: .timedOut,
            message: "All \(maximum) connections to \(server) stayed in use for \(waited). Nothing was run: try "
                + "again, raise the pool's maximumConnections, or finish long transactions sooner.")
    }

    /// `url` with the password of its user part replaced, for messages.
    private static func redactingPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "…" + String(url[at...])
    }
}
