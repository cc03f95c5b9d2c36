/// A transaction isolation level of PostgreSQL.
package enum PostgresIsolationLevel: Sendable, Hashable {
    /// Each statement sees the rows committed before it began (PostgreSQL's default).
    case readCommitted
    /// Every statement of the transaction sees the snapshot of its first statement.
    case repeatableRead
    /// As if the transactions ran one after another; the server fails one of two that could not.
    case serializable

    var sql: String {
        switch self {
        case .readCommitted: "READ COMMITTED"
        case .repeatableRead: "REPEATABLE READ"
        case .serializable: "SERIALIZABLE"
        }
    }
}
