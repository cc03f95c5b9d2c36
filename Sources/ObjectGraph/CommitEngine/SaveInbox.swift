/// Notifications waiting for a context that merges automatically; it takes them at its next
/// operation, in its own isolation domain.
final class SaveInbox: Sendable {
    private let pending = Locked<[SaveNotification]>([])

    func append(_ notification: SaveNotification) { pending.withLock { $0.append(notification) } }

    func takeAll() -> [SaveNotification] {
        pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}
