import Dispatch

extension StoreCoordinator {
    /// Commits with at least this many deleted rows hand the replaced state to a background
    /// thread to free.
    static let backgroundReleaseThreshold = 1024

    /// Frees `value` (a state a commit replaced, whose rows it deleted) on a background
    /// thread, so that the commit does not pay for freeing every deleted row: a delete of
    /// 100,000 objects empties a table in one step, and releasing its rows would cost far more.
    /// SQLite likewise puts the pages of a deleted table on its free list rather than clearing
    /// them.
    ///
    /// The caller's reference is moved (not copied) under a lock into a box that only the
    /// background work empties, so the rows are freed there whichever thread runs first. Any
    /// other holder of the old state (a fetch in progress) keeps it alive as before.
    /// A context's deferred deletes, forgotten after a large save, go the same way.
    static func releaseInBackground<Value: Sendable>(_ value: inout Value?) {
        guard value != nil else { return }
        let box = ReleasedValue<Value>()
        box.slot.withLock { slot in
            slot = value.take()
        }
        DispatchQueue.global(qos: .utility).async {
            _ = box.slot.withLock { $0.take() }
        }
    }
}

/// A replaced state (or other value) on its way to a background thread.
private final class ReleasedValue<Value: Sendable>: Sendable {
    let slot = Locked<Value?>(nil)
}
