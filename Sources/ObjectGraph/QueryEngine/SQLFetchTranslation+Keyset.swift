extension SQLFetchTranslation {
    /// A page of a keyset scan of an exact, ordered selection: the values of ``orderTerms`` (the
    /// key last) of at most `limit` rows that follow the row whose term values are `after` (from
    /// the first row when `nil`), in order, skipping `offset` rows first; with its bindings. `nil`
    /// when the selection is not exact and ordered.
    ///
    /// The condition continues after the last row as `ORDER BY` orders: NULL before any value
    /// ascending and after any value descending, equal terms decided by the next one and ties by
    /// the key, which is unique.
    func selectPage(after: [SQLValue]?, limit: Int, offset: Int) -> (sql: String, bindings: [SQLValue])? {
        guard isExact, let terms = orderTerms, let order else { return nil }
        var conditions: [SQLFragment] = []
        if let condition { conditions.append(SQLFragment("(\(condition))")) }
        var boundValues = bindings
        if let after, after.count == terms.count {
            // Placeholders numbered after the predicate's.
            let following = Self.following(terms, after)
            conditions.append(SQLFragment("(\(following.text(dialect, from: bindings.count + 1)))"))
            boundValues += following.values
        }
        var sql = "SELECT \(terms.map(\.compared).joined(separator: ", ")) FROM \(table) AS \(Self.alias)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.map { $0.text(dialect) }.joined(separator: " AND ") }
        sql += " ORDER BY \(order) LIMIT \(max(limit, 0))"
        if offset > 0 { sql += " OFFSET \(offset)" }
        return (sql, boundValues)
    }

    /// `terms` after the values `last`: for some term, every earlier one equal and this one after.
    private static func following(_ terms: [SQLOrderTerm], _ last: [SQLValue]) -> SQLFragment {
        var alternatives: [SQLFragment] = []
        var equalSoFar: [SQLFragment] = []
        for (term, value) in zip(terms, last) {
            let isNull = value == .null
            let after: SQLFragment? =
                switch (term.ascending, isNull) {
                case (true, true): SQLFragment("\(term.expression) IS NOT NULL")
                case (true, false): SQLFragment("\(term.compared) > ") + .value(value)
                case (false, true): nil  // Nothing follows NULL descending.
                case (false, false):
                    SQLFragment("(\(term.compared) < ") + .value(value) + " OR \(term.expression) IS NULL)"
                }
            if let after { alternatives.append(SQLFragment.joined(equalSoFar + [after], separator: " AND ")) }
            equalSoFar.append(
                isNull ? SQLFragment("\(term.expression) IS NULL") : SQLFragment("\(term.compared) = ") + .value(value))
        }
        guard !alternatives.isEmpty else { return SQLFragment("0 = 1") }
        return SQLFragment.joined(alternatives.map { "(" + $0 + ")" }, separator: " OR ")
    }
}
