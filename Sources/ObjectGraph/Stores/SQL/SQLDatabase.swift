/// A connection to a SQL database: the seam a SQL store is written against.
///
/// `SQLiteConnection` implements it over the system SQLite; a PostgreSQL connection would implement
/// it over libpq with `SQLDialect.postgreSQL`. A connection is used by one thread at a time (its
/// store serialises calls behind its own lock); statements it hands out belong to it and are
/// cached by their text, so a store prepares each distinct statement once per connection.
///
/// Every failure is a typed `PersistenceError` (the connection maps its database's result codes:
/// busy and locked to `.storeLocked`, corruption to `.corruptStore`, I/O and a full disk to
/// `.ioFailure`, constraint violations to `.conflict`), whose message says what to do.
package protocol SQLDatabase: AnyObject {
    /// How this database spells identifiers, placeholders, types and upserts.
    var dialect: SQLDialect { get }

    /// Runs SQL text that returns no rows (one statement or several separated by `;`), uncached.
    func execute(_ sql: String) throws

    /// A prepared statement for `sql`, made on first use and cached by its text afterwards.
    ///
    /// The statement comes back reset, with no values bound.
    func statement(_ sql: String) throws -> any SQLStatement

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changedRowCount: Int { get }

    /// Starts a transaction that takes the write lock at once (SQLite's `BEGIN IMMEDIATE`,
    /// PostgreSQL's `BEGIN` plus the store's advisory lock).
    func beginWriteTransaction() throws

    /// Starts a transaction that reads one consistent state.
    func beginReadTransaction() throws

    /// Makes the open transaction durable.
    func commit() throws

    /// Undoes the open transaction; never throws (a failed rollback leaves the connection to be
    /// closed, which rolls back too).
    func rollback()

    /// Closes the connection; later calls throw `.storeClosed`.
    func close()
}

/// A prepared statement of a ``SQLDatabase``.
package protocol SQLStatement: AnyObject {
    /// Binds `value` to the parameter at `index` (1-based, as both SQLite and PostgreSQL count).
    func bind(_ value: SQLValue, at index: Int) throws

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when done.
    func step() throws -> Bool

    /// The value of column `index` (0-based) of the current row.
    func column(_ index: Int) -> SQLValue

    /// The number of columns of each row.
    var columnCount: Int { get }

    /// Resets the statement to run again and clears its bindings.
    func reset()
}

extension SQLDatabase {
    /// Runs `sql` with `values` bound to its parameters in order, and returns the number of rows
    /// it changed.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        let statement = try statement(sql)
        defer { statement.reset() }
        for (offset, value) in values.enumerated() { try statement.bind(value, at: offset + 1) }
        while try statement.step() {}
        return changedRowCount
    }

    /// Runs the query `sql` with `values` bound in order, calling `body` with each row's statement
    /// (read its columns with ``SQLStatement/column(_:)``).
    package func forEachRow(
        _ sql: String, _ values: [SQLValue] = [], _ body: (any SQLStatement) throws -> Void
    ) throws {
        let statement = try statement(sql)
        defer { statement.reset() }
        for (offset, value) in values.enumerated() { try statement.bind(value, at: offset + 1) }
        while try statement.step() { try body(statement) }
    }

    /// The rows of the query `sql`, each as its column values.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        var rows: [[SQLValue]] = []
        try forEachRow(sql, values) { row in rows.append((0..<row.columnCount).map(row.column)) }
        return rows
    }

    /// Runs `body` in a write transaction: committed if it returns, rolled back if it throws.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try beginWriteTransaction()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Runs `body` in a read transaction, so that it sees one consistent state.
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try beginReadTransaction()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }
}
