extension SQLStoreSchema {
    /// Deletes the history transactions before `token`, with their changes (runs of deleted keys
    /// included), inside a write transaction. The last transaction is always kept, so that tokens
    /// keep counting from it and are never handed out twice.
    ///
    /// - Returns: The number of transactions deleted.
    func deleteHistory(before token: Int64, _ database: any SQLDatabase) throws -> Int {
        let bound = min(token, try lastHistoryToken(database))
        let dialect = database.dialect
        try database.run(
            "DELETE FROM \(dialect.quote(Self.changesTable)) WHERE token < \(dialect.placeholder(1))", [.integer(bound)]
        )
        return try database.run(
            "DELETE FROM \(dialect.quote(Self.transactionsTable)) WHERE token < \(dialect.placeholder(1))",
            [.integer(bound)])
    }
}
