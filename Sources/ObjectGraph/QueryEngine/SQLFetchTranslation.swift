/// TEMPORARY (replaced by the translator branch): translates nothing, so every fetch reads all
/// of its entity's keys and the in-memory engine decides.
struct SQLFetchTranslation {
    var condition: String?
    var bindings: [SQLValue] = []
    var isExact: Bool
    var order: String?
    let table: String
    let dialect: SQLDialect

    init(
        predicate: PredicateExpression?, sort: [FetchSortDescriptor], entity: EntityInfo, schema: SQLStoreSchema,
        dialect: SQLDialect
    ) {
        self.dialect = dialect
        table = schema.tables[entity.index].name
        condition = nil
        isExact = predicate == nil
        order = sort.isEmpty ? dialect.quote(SQLStoreSchema.keyColumn) : nil
    }

    func selectKeys(limit: Int?, offset: Int) -> String {
        var sql = "SELECT \(dialect.quote(SQLStoreSchema.keyColumn)) FROM \(dialect.quote(table))"
        if let condition { sql += " WHERE \(condition)" }
        if let order { sql += " ORDER BY \(order)" }
        if let limit { sql += " LIMIT \(limit) OFFSET \(offset)" }
        return sql
    }

    func count() -> String {
        var sql = "SELECT COUNT(*) FROM \(dialect.quote(table))"
        if let condition { sql += " WHERE \(condition)" }
        return sql
    }

    static func installFunctions(on database: any SQLDatabase) throws {}
}
