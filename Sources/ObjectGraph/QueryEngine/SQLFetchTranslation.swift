/// A fetch's predicate and sort for one entity's table (``SQLStoreSchema``'s layout), as SQL: the
/// query a SQL store runs to select the keys of the objects a fetch returns.
///
/// Translation is exact or a superset, never a subset: each part of the predicate that SQL is
/// proven to evaluate as the query engine does is translated (numbers, dates, nil tests,
/// case-sensitive ASCII string equality natively; string options, `LIKE`, `MATCHES`, decimals and
/// other values through the engine's own test, ``SQLEngineMatcher``, where the dialect can call
/// functions); `ANY`/`ALL`/`NONE` and `@count` over to-many relationships and `SUBQUERY(…).@count`
/// become correlated subqueries, key paths through to-one relationships scalar subqueries. A part
/// that does not translate is dropped from its `AND` (the result is then a superset that the
/// engine re-checks) and makes its enclosing `OR` or `NOT` untranslatable.
///
/// For example:
/// ```swift
/// let translation = SQLFetchTranslation(
///     predicate: predicate.expression, sort: [FetchSortDescriptor(key: "name")], entity: info,
///     schema: schema, dialect: .sqlite)
/// let keys = try connection.rows(translation.selectKeys(limit: 10, offset: 0), translation.bindings)
/// ```
struct SQLFetchTranslation {
    /// The WHERE condition (without the keyword), `nil` when no part translated (all rows).
    var condition: String?
    /// Values for the condition's placeholders, in order.
    var bindings: [SQLValue]
    /// Whether `condition` selects exactly the rows the in-memory engine matches (on committed
    /// rows). When false it selects a superset and the engine re-checks.
    var isExact: Bool
    /// ORDER BY terms (without the keyword, `_key` last as the tie-break, as the engine keeps key
    /// order for ties), `nil` if the sort did not translate exactly. Without sort descriptors,
    /// key order.
    var order: String?
    /// The terms of ``order``, the key last; `nil` with it.
    var orderTerms: [SQLOrderTerm]?
    /// The table's name, quoted.
    let table: String
    /// The alias the statements give the table.
    static let alias = "t0"
    let dialect: SQLDialect

    /// Translates `predicate` and `sort` for the table of `entity`.
    ///
    /// The predicate should be one the engine compiles for `entity` (a fetch checks it first);
    /// a comparison it would reject translates to anything.
    init(
        predicate: PredicateExpression?, sort: [FetchSortDescriptor], entity: EntityInfo, schema: SQLStoreSchema,
        dialect: SQLDialect
    ) {
        self.dialect = dialect
        table = dialect.quote(entity.name)
        var translator = SQLPredicateTranslator(model: schema.model, schema: schema, dialect: dialect)
        let row = SQLPredicateTranslator.Row.alias(Self.alias, entity)
        if let predicate, let translated = translator.condition(predicate, row: row) {
            condition = translated.sql.text(dialect)
            bindings = translated.sql.values
            isExact = translated.isExact
        } else {
            condition = nil
            bindings = []
            isExact = predicate == nil
        }
        orderTerms = translator.orderTerms(sort, row: row)
        order = orderTerms?.map { $0.ordering(dialect) }.joined(separator: ", ")
    }

    /// `SELECT _key FROM table WHERE … ORDER BY … LIMIT … OFFSET …`, bound with ``bindings``.
    /// The limit and offset apply only when the selection is exact and ordered as the fetch
    /// asks (else the engine applies them after re-checking and sorting).
    func selectKeys(limit: Int?, offset: Int) -> String {
        select("\(Self.alias).\(dialect.quote(SQLStoreSchema.keyColumn))", limit: limit, offset: offset)
    }

    /// ``selectKeys(limit:offset:)`` selecting `columns` (of the row ``alias``) instead of the key.
    func select(_ columns: String, limit: Int?, offset: Int) -> String {
        var sql = "SELECT \(columns) FROM \(table) AS \(Self.alias)"
        if let condition { sql += " WHERE \(condition)" }
        if let order { sql += " ORDER BY \(order)" }
        guard isExact, order != nil else { return sql }
        if let limit {
            sql += " LIMIT \(max(limit, 0))"
        } else if offset > 0 {
            // SQLite needs a LIMIT before an OFFSET (-1: none); PostgreSQL takes OFFSET alone.
            sql += dialect == .sqlite ? " LIMIT -1" : ""
        }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return sql
    }

    /// `SELECT COUNT(*) FROM table WHERE …`, bound with ``bindings``: the fetch's count when
    /// ``isExact``, else the number of candidates.
    func count() -> String {
        var sql = "SELECT COUNT(*) FROM \(table) AS \(Self.alias)"
        if let condition { sql += " WHERE \(condition)" }
        return sql
    }

    /// Installs the functions translated SQL calls (the engine's value test, case folding and string order) on a
    /// connection whose dialect ``SQLDialect/supportsCustomFunctions``.
    ///
    /// - Throws: `.storeClosed` on a closed connection, or the database's error.
    static func installFunctions(on database: any SQLFunctionRegistering, model: ManagedObjectModel) throws {
        try SQLEngineMatcher.install(on: database, model: model)
        try database.createFunction(name: SQLSortKey.foldFunctionName, argumentCount: 1, deterministic: true) {
            SQLSortKey.folded($0)
        }
        try database.createCollation(name: SQLSortKey.collationName, SQLSortKey.order)
    }
}
