extension StoreCoordinator {
    /// Replaces the store's metadata in one commit of its own, serialised with saves: the store
    /// persists it before this returns, and nothing changes if the store refuses it.
    func setMetadata(_ metadata: [String: String]) throws {
        try commitLock.withLock { _ in
            var next = state.withLock { $0.snapshot }
            guard next.metadata != metadata else { return }
            next.metadata = metadata
            try store.save(StoreChangeSet(inserted: [], updated: [], deleted: [], snapshot: next))
            state.withLock { $0.snapshot.metadata = metadata }
        }
    }
}
