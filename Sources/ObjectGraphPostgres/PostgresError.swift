/// What a PostgreSQL server (or libpq, for a connection it lost) reported: the `underlying` error
/// of a `PersistenceError` thrown by the PostgreSQL driver.
///
/// Match on ``sqlState`` for the details the `PersistenceError.Code` does not carry, for example
/// `40001` (serialization failure) against `40P01` (deadlock), both `.conflict`.
///
/// For example:
/// ```swift
/// catch let error as PersistenceError where (error.underlying as? PostgresError)?.sqlState == "23505" { … }
/// ```
///
/// Core Data: none (the SQLite store's errors carry no SQLite code).
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505`, `40001`, `57014`, …); `08006` when libpq lost the
    /// connection without a word from the server.
    public var sqlState: String
    /// The server's (or libpq's) primary message, without the detail line that may quote values.
    public var message: String
    /// The constraint involved, for integrity errors.
    public var constraintName: String?
    /// The table involved, if the server names one.
    public var tableName: String?
    /// The column involved, if the server names one.
    public var columnName: String?

    /// The SQLSTATE a lost connection reports (`connection_failure`).
    static let connectionFailure = "08006"

    /// An error with `sqlState` and `message`.
    public init(
        sqlState: String, message: String, constraintName: String? = nil, tableName: String? = nil,
        columnName: String? = nil
    ) {
        self.sqlState = sqlState
        self.message = message
        self.constraintName = constraintName
        self.tableName = tableName
        self.columnName = columnName
    }

    /// The SQLSTATE's class: its first two characters (`23` for every integrity violation).
    public var sqlStateClass: Substring { sqlState.prefix(2) }

    /// Whether the connection is gone (class `08`, or the server shutting down, `57P01`–`57P03`):
    /// it must be closed and a new one opened.
    public var isConnectionLost: Bool {
        sqlStateClass == "08" || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
    }

    public var description: String { "PostgreSQL error \(sqlState): \(message)" }
}
