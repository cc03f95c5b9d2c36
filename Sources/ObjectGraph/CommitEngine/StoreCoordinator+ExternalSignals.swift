extension StoreCoordinator {
    /// Asks a store that signals other processes' saves to wake this coordinator when one
    /// arrives; each signal merges them and publishes them to the contexts, without a fetch. The
    /// store holds the coordinator weakly: a signal after the container is gone does nothing, and
    /// closing the store stops the signals.
    func followExternalSignals() {
        guard let signaling = store as? any ExternalChangeSignalingStore else { return }
        signaling.signalExternalChanges { [weak self] in
            guard let self else { return }
            // A merge skips while a commit runs: let a running one finish first.
            commitLock.withLock { _ in }
            // A failing check is met again by the next fetch or save, which throws it.
            try? mergeExternalChangesInTurn()
        }
    }

    /// ``mergeExternalChanges()`` after any merge running on another thread (a store's signal, or
    /// another context's fetch) has finished: a merge skips while the commit lock is taken, so a
    /// fetch that found another merge under way would otherwise read the state before it.
    func mergeExternalChangesInTurn() throws {
        try externalMergeLock.withLock { _ in try mergeExternalChanges() }
    }
}
