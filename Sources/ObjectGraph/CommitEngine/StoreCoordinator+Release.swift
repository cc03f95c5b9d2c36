import Dispatch

extension StoreCoordinator {
    /// Commits with at least this many deleted rows hand the replaced state to a background
    /// thread to free.
    static let backgroundReleaseThreshold = 1024

    /// Frees `snapshot` (a state a commit replaced, whose rows it deleted) on a background
    /// thread, so that the commit does not pay for freeing every deleted row: a delete of
    /// 100,000 objects empties a table in one step, and releasing its rows would cost far more.
    /// SQLite likewise puts the pages of a deleted table on its free list rather than clearing
    /// them.
    ///
    /// The caller's reference is moved (not copied) under a lock into a box that only the
    /// background work empties, so the rows are freed there whichever thread runs first. Any
    /// other holder of the old state (a fetch in progress) keeps it alive as before.
    static func releaseInBackground(_ snapshot: inout StoreSnapshot?) {
        guard snapshot != nil else { return }
        let box = ReleasedSnapshot()
        box.slot.withLock { slot in
            slot = snapshot.take()
        }
        DispatchQueue.global(qos: .utility).async {
            _ = box.slot.withLock { $0.take() }
        }
    }
}

/// A replaced state on its way to a background thread.
private final class ReleasedSnapshot: Sendable {
    let slot = Locked<StoreSnapshot?>(nil)
}
