import ObjectGraph

extension PostgresConnection {
    /// Runs `body` holding the session-level advisory lock named `name`, which one session of
    /// the database holds at a time (for example, for one server at a time to migrate the schema).
    ///
    /// Waits for another holder up to `timeout` (`nil`: as long as it takes). The name maps to
    /// the lock's 64-bit key with PostgreSQL's `hashtextextended`, the same on every server.
    ///
    /// - Throws: `.storeLocked` if another session held the lock for all of `timeout`; what
    ///   `body` throws (the lock is released either way).
    package func withAdvisoryLock<T>(_ name: String, timeout: Duration? = nil, _ body: () throws -> T) throws -> T {
        let milliseconds = timeout.map {
            max(1, $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)
        }
        try execute("SET lock_timeout = \(milliseconds ?? 0)")
        defer { try? execute("RESET lock_timeout") }
        try run("SELECT pg_advisory_lock(hashtextextended($1, 0))", [.text(name)])
        defer { _ = try? run("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [.text(name)]) }
        return try body()
    }
}
