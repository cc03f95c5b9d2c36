/// One `ORDER BY` term of a translated sort: a value, the collation it compares by, and its
/// direction. A page of a keyset scan continues after the last row's values of these terms.
struct SQLOrderTerm {
    /// The SQL expression ordered by (of the row ``SQLFetchTranslation/alias``), without parameters.
    var expression: String
    /// The collation's name, for strings compared by ``SQLSortKey``.
    var collation: String?
    var ascending: Bool
    /// Whether the value may be NULL (the key never is).
    var canBeNull = true

    /// The expression with its collation: what comparisons with a bound value use.
    var compared: String { collation.map { "\(expression) COLLATE \($0)" } ?? expression }

    /// The term as `ORDER BY` spells it: NULL first ascending and last descending on every
    /// dialect (SQLite's own order; PostgreSQL is told).
    func ordering(_ dialect: SQLDialect) -> String {
        let nulls = dialect == .sqlite || !canBeNull ? "" : (ascending ? " NULLS FIRST" : " NULLS LAST")
        return "\(compared) \(ascending ? "ASC" : "DESC")\(nulls)"
    }
}
