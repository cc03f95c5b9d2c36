/// A value as a SQL database binds and returns it: the five storage classes every SQL database
/// has (SQLite's, and PostgreSQL's `bigint`, `double precision`, `text`, `bytea` and `NULL`).
///
/// The store's values map onto these through ``SQLColumnCoding``; a connection maps these onto
/// its own wire or C types.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, or `nil` for any other storage class.
    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text, or `nil` for any other storage class.
    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The name of the storage class, for error messages.
    package var kindName: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}
