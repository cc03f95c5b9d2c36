import Foundation
import ObjectGraph

/// Listens for other servers' saves to one ``PostgresStore`` on a session of its own, and wakes
/// the store's container when one arrives: the store's change channel is read by one thread,
/// which waits on the session's socket (never polling the database) and stops within a quarter
/// of a second of ``stop()``.
///
/// A notification's payload is the save's history token. The handler is called once per batch of
/// notifications, and again (every 50 ms, at most 40 times) while the store has not seen the
/// latest token, since the container skips a merge while it commits. A dropped session is
/// replaced (every half second while the server is away), and the handler called once after,
/// since notifications sent meanwhile were lost.
final class PostgresChangeListener: Sendable {
    private let stopped = Locked(false)
    private let handler: @Sendable () -> Void

    init(handler: @escaping @Sendable () -> Void) {
        self.handler = handler
    }

    /// Starts the listening thread for `store` (held weakly: the thread ends when it is gone).
    func start(_ store: PostgresStore, namespace: String) {
        Thread.detachNewThread { [weak store] in
            self.run(store, namespace: namespace)
        }
    }

    /// Makes the thread end and close its session.
    func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run(_ weakStore: PostgresStore?, namespace: String) {
        weak let store = weakStore
        var connection: PostgresConnection?
        // The newest token another server announced that the store had not seen, and how many
        // times the handler was called for it.
        var pending: Int64 = 0
        var attempts = 0
        var sessions = 0
        while !isStopped, let current = store {
            guard let session = connection ?? (try? current.connect(namespace: namespace).connection) else {
                Thread.sleep(forTimeInterval: 0.5)
                continue
            }
            if connection == nil {
                connection = session
                sessions += 1
                // Notifications sent while the dropped session was away are lost: look once. (Not
                // after the first session: the container has just read the store.)
                if sessions > 1, pending == 0 { pending = 1 }
            }
            do {
                let wait: Duration = pending > 0 ? .milliseconds(50) : .milliseconds(250)
                let received = try session.notifications(waitingUpTo: wait)
                let own = current.state.withLock { $0?.connection.backendProcessID }
                for notification in received where notification.senderProcessID != own {
                    pending = max(pending, Int64(notification.payload) ?? 1)
                }
            } catch {
                session.close()
                connection = nil
                continue
            }
            guard pending > 0, !isStopped else { continue }
            handler()
            let seen = current.state.withLock { $0?.engine.historyToken } ?? .max
            attempts += 1
            if seen >= pending || attempts >= 40 {
                pending = 0
                attempts = 0
            }
        }
        connection?.close()
    }
}
