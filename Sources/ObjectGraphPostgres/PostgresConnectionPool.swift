import Foundation
import ObjectGraph

/// A bounded set of ``PostgresConnection``s to one server, lent to one caller at a time.
///
/// A caller waits for a free connection up to ``waitTimeout``, then gets a `.timedOut` error.
/// Connections open on demand, up to ``maximumConnections``; one that the server dropped (a
/// restart, `pg_terminate_backend`) is closed and replaced when it is next lent, and one given
/// back inside a transaction is rolled back first.
///
/// For example:
/// ```swift
/// let pool = PostgresConnectionPool(configuration: configuration, maximumConnections: 8)
/// let count = try pool.withConnection { try $0.rows("SELECT count(*) FROM \"Fruit\"") }
/// ```
package final class PostgresConnectionPool: @unchecked Sendable {
    // `@unchecked Sendable`: the mutable state below (and the connections in it, which are not
    // Sendable) is only touched with `condition` locked; a lent connection belongs to its borrower.
    package let configuration: PostgresConfiguration
    /// The most connections open at once (lent, idle or being opened).
    package let maximumConnections: Int
    /// The longest a caller waits for a free connection.
    package let waitTimeout: Duration

    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var openCount = 0
    private var isClosed = false

    /// A pool of at most `maximumConnections` (at least 1) connections to the server of
    /// `configuration`, opened when first needed.
    package init(
        configuration: PostgresConfiguration, maximumConnections: Int = 4, waitTimeout: Duration = .seconds(10)
    ) {
        self.configuration = configuration
        self.maximumConnections = max(1, maximumConnections)
        self.waitTimeout = waitTimeout
    }

    deinit { close() }

    /// Runs `body` with a connection of the pool, and takes the connection back after.
    ///
    /// - Throws: `.timedOut` if no connection came free within ``waitTimeout``; `.ioFailure` if a
    ///   new connection cannot be made; `.storeClosed` after ``close()``; and what `body` throws.
    package func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// How many connections are open, and how many of them are idle.
    package var counts: (open: Int, idle: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (openCount, idle.count)
    }

    /// Closes the idle connections and refuses new loans; connections lent out close when they
    /// come back.
    package func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        idle = []
        openCount -= closing.count
        condition.broadcast()
        condition.unlock()
        closing.forEach { $0.close() }
    }

    private func checkOut() throws -> PostgresConnection {
        let deadline = ContinuousClock.now + waitTimeout
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw PersistenceError.postgresConnectionClosed(server: configuration.description)
            }
            if let connection = idle.popLast() {
                condition.unlock()
                if connection.isUsable { return connection }
                connection.close()
                condition.lock()
                openCount -= 1
                continue
            }
            if openCount < maximumConnections {
                openCount += 1
                condition.unlock()
                do {
                    return try PostgresConnection(configuration: configuration)
                } catch {
                    condition.lock()
                    openCount -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero
                || !condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(remaining)))
                    && ContinuousClock.now >= deadline
            {
                condition.unlock()
                throw PersistenceError.postgresPoolTimedOut(
                    server: configuration.description, maximum: maximumConnections, waited: waitTimeout)
            }
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        if connection.isInTransaction { connection.rollback() }
        let usable = connection.isUsable
        condition.lock()
        let keep = usable && !isClosed
        if keep {
            idle.append(connection)
        } else {
            openCount -= 1
        }
        condition.signal()
        condition.unlock()
        if !keep { connection.close() }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
