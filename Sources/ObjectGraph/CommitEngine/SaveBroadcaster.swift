/// The subscribers of a coordinator's save notifications.
final class SaveBroadcaster: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<SaveNotification>.Continuation] = [:]
        var inboxes: [Int: SaveInbox] = [:]
        var nextSubscriber = 0
        var nextSequenceNumber = 1
        var nextContextNumber = 1
    }

    private let state = Locked(State())

    /// A new stream of every later notification, in order.
    func subscribe() -> AsyncStream<SaveNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: SaveNotification.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers every later notification to `inbox` too, until `removeInbox(for:)`.
    func addInbox(_ inbox: SaveInbox, for context: Int) {
        state.withLock { $0.inboxes[context] = inbox }
    }

    func removeInbox(for context: Int) {
        _ = state.withLock { $0.inboxes.removeValue(forKey: context) }
    }

    /// A number for a new context.
    func nextContextNumber() -> Int {
        state.withLock { state in
            defer { state.nextContextNumber += 1 }
            return state.nextContextNumber
        }
    }

    /// Publishes one save; called in commit order (under the coordinator's commit lock), and
    /// never blocks (streams buffer).
    func publish(
        inserted: Set<ObjectID>, updated: Set<ObjectID>, deleted: Set<ObjectID>, origin: ContextIdentifier
    ) {
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        publish(origin: origin) { (inserted, updated, deleted) }
    }

    /// Numbers a save that changed something and, only if anyone listens, builds its
    /// notification with `changes` (and the objects of the entities it `emptied`) and delivers
    /// it; a save nobody hears costs no ID sets (unless `always`). Returns the notification when
    /// it was built.
    @discardableResult
    func publish(
        origin: ContextIdentifier, always: Bool = false, emptied: EmptiedEntities? = nil,
        _ changes: () -> (inserted: Set<ObjectID>, updated: Set<ObjectID>, deleted: Set<ObjectID>)
    ) -> SaveNotification? {
        state.withLock { state in
            let sequenceNumber = state.nextSequenceNumber
            state.nextSequenceNumber += 1
            let hasListeners =
                !state.subscribers.isEmpty || state.inboxes.keys.contains { $0 != origin.number }
            guard hasListeners || always else { return nil }
            let (inserted, updated, deleted) = changes()
            let notification = SaveNotification(
                insertedObjectIDs: inserted, updatedObjectIDs: updated, deletedObjectIDs: deleted, emptied: emptied,
                origin: origin,
                sequenceNumber: sequenceNumber)
            for continuation in state.subscribers.values { continuation.yield(notification) }
            for (context, inbox) in state.inboxes where context != origin.number { inbox.append(notification) }
            return notification
        }
    }

    deinit {
        state.withLock { state in
            for continuation in state.subscribers.values { continuation.finish() }
        }
    }
}
