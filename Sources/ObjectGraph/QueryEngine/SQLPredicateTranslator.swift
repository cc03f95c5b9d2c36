/// Translates a ``PredicateExpression`` into a SQL condition on an entity's table
/// (``SQLStoreSchema``'s layout), part by part: what it can prove equal to the query engine's
/// result is exact, the rest is dropped from an `AND` (leaving a superset) or makes the
/// enclosing `OR`/`NOT` untranslatable. Used by ``SQLFetchTranslation``.
struct SQLPredicateTranslator {
    let model: ManagedObjectModel
    let schema: SQLStoreSchema
    let dialect: SQLDialect
    /// The elements bound by enclosing `SUBQUERY`s, by variable name.
    var variables: [String: Row] = [:]
    private var aliasCount = 0

    init(model: ManagedObjectModel, schema: SQLStoreSchema, dialect: SQLDialect) {
        self.model = model
        self.schema = schema
        self.dialect = dialect
    }

    /// A translated condition: always true or false, never SQL `NULL` (so that `NOT` inverts it).
    struct Condition {
        var sql: SQLFragment
        /// Whether it selects exactly the rows the engine matches; otherwise a superset of them.
        var isExact: Bool

        static func exact(_ sql: SQLFragment) -> Condition { Condition(sql: sql, isExact: true) }
        static let alwaysTrue = Condition.exact(SQLFragment("1 = 1"))
        static let alwaysFalse = Condition.exact(SQLFragment("1 = 0"))
    }

    /// An object of an entity in a query: a row of its table under an alias, or only its key.
    enum Row {
        case alias(String, EntityInfo)
        case key(SQLFragment, EntityInfo)

        var entity: EntityInfo {
            switch self {
            case .alias(_, let entity), .key(_, let entity): entity
            }
        }
    }

    /// A fresh table alias.
    mutating func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// `expression` on the object `row`; `nil` when no part of it translates (every row).
    mutating func condition(_ expression: PredicateExpression, row: Row) -> Condition? {
        switch expression {
        case .constant(let value): return value ? .alwaysTrue : .alwaysFalse
        case .not(let inner):
            // NOT of a superset would be a subset: only an exact operand inverts.
            guard let operand = condition(inner, row: row), operand.isExact else { return nil }
            return .exact("(NOT " + operand.sql + ")")
        case .and(let operands):
            var parts: [SQLFragment] = []
            var isExact = true
            for operand in operands {
                guard let part = condition(operand, row: row) else {
                    isExact = false
                    continue
                }
                isExact = isExact && part.isExact
                parts.append(part.sql)
            }
            if operands.isEmpty { return .alwaysTrue }
            guard !parts.isEmpty else { return nil }
            return Condition(sql: "(" + SQLFragment.joined(parts, separator: " AND ") + ")", isExact: isExact)
        case .or(let operands):
            if operands.isEmpty { return .alwaysFalse }
            var parts: [SQLFragment] = []
            var isExact = true
            for operand in operands {
                // A part that selects every row makes the whole OR select every row.
                guard let part = condition(operand, row: row) else { return nil }
                isExact = isExact && part.isExact
                parts.append(part.sql)
            }
            return Condition(sql: "(" + SQLFragment.joined(parts, separator: " OR ") + ")", isExact: isExact)
        case .comparison(let comparison):
            return self.comparison(comparison, row: row)
        }
    }

    // MARK: - Tables and columns

    /// The table layout of `entity`.
    func table(of entity: EntityInfo) -> SQLStoreSchema.Table? {
        schema.tables.first { $0.entityIndex == entity.index }
    }

    func quote(_ name: String) -> String { dialect.quote(name) }

    /// The key of the object `row`.
    func key(of row: Row) -> SQLFragment {
        switch row {
        case .alias(let alias, _): SQLFragment("\(alias).\(quote(SQLStoreSchema.keyColumn))")
        case .key(let key, _): key
        }
    }

    /// The value of the column `name` of the object `row` (`NULL` when the object is missing).
    mutating func column(_ name: String, of row: Row) -> SQLFragment {
        switch row {
        case .alias(let alias, _): return SQLFragment("\(alias).\(quote(name))")
        case .key(let key, let entity):
            let alias = newAlias()
            return "(SELECT \(alias).\(quote(name)) FROM \(quote(entity.name)) AS \(alias) WHERE "
                + "\(alias).\(quote(SQLStoreSchema.keyColumn)) = " + key + ")"
        }
    }
}
