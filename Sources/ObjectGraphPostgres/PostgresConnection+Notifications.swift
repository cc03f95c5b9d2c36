import CLibPQ
import ObjectGraph

/// A notification a PostgreSQL session sent with `NOTIFY` (or `pg_notify`).
package struct PostgresNotification: Sendable, Hashable {
    /// The channel it was sent on.
    package var channel: String
    /// Its payload (at most 8000 bytes).
    package var payload: String
    /// The server process of the sending session.
    package var senderProcessID: Int32
}

extension PostgresConnection {
    /// Subscribes this session to `channel` (`LISTEN`): notifications sent on it after the
    /// listening transaction commits are queued for ``notifications(waitingUpTo:)``.
    package func listen(_ channel: String) throws { try execute("LISTEN \(dialect.quote(channel))") }

    /// Ends the subscription to `channel` (`UNLISTEN`).
    package func unlisten(_ channel: String) throws { try execute("UNLISTEN \(dialect.quote(channel))") }

    /// Sends `payload` on `channel` (`pg_notify`); inside a transaction it is delivered when the
    /// transaction commits, and not at all if it rolls back.
    package func notify(_ channel: String, payload: String = "") throws {
        try run("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// The notifications that have arrived, waiting up to `timeout` for the first one.
    ///
    /// - Throws: `.ioFailure` if the connection was lost; `.storeClosed` after `close()`.
    package func notifications(waitingUpTo timeout: Duration = .zero) throws -> [PostgresNotification] {
        guard let handle else { throw PersistenceError.postgresConnectionClosed(server: server) }
        var received = drainNotifications(handle)
        let deadline = ContinuousClock.now + timeout
        while received.isEmpty {
            let remaining = deadline - ContinuousClock.now
            let milliseconds = max(
                0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            guard Self.isReadable(PQsocket(handle), waitingUpTo: Int32(clamping: milliseconds)) else { break }
            guard PQconsumeInput(handle) == 1 else {
                let reason = String(cString: PQerrorMessage(handle))
                throw PersistenceError.postgres(
                    PostgresError(sqlState: PostgresError.connectionFailure, message: reason),
                    operation: "waiting for notifications", server: server)
            }
            received = drainNotifications(handle)
            if remaining <= .zero { break }
        }
        return received
    }

    private func drainNotifications(_ handle: OpaquePointer) -> [PostgresNotification] {
        var received: [PostgresNotification] = []
        while let notification = PQnotifies(handle) {
            // libpq allocates each notification; its strings are copied out before it is freed.
            defer { PQfreemem(notification) }
            received.append(
                PostgresNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra),
                    senderProcessID: notification.pointee.be_pid))
        }
        return received
    }
}
