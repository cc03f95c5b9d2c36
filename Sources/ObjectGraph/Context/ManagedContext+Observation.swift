extension ManagedContext {
    /// What a context keeps for observers: the observation key path of each slot, and the
    /// fetched-results controllers (held weakly) to tell when it processed changes.
    struct ObservationState {
        var keyPaths: [KeyPath<ManagedObject, Int>] = []
        var listeners: [WeakListener] = []
        /// Whether listeners are being told, so that changes they make wait for the next round.
        var isNotifying = false
    }

    /// A listener the context does not keep alive.
    struct WeakListener {
        weak var listener: (any ContextChangeListener)?
    }

    /// Starts telling `listener` when this context processed changes.
    func addChangeListener(_ listener: any ContextChangeListener) {
        observation.listeners.removeAll { $0.listener == nil }
        observation.listeners.append(WeakListener(listener: listener))
    }

    /// Stops telling `listener`.
    func removeChangeListener(_ listener: any ContextChangeListener) {
        observation.listeners.removeAll { $0.listener == nil || $0.listener === listener }
    }

    /// Tells the listeners that the context processed changes: it saved, merged another context's
    /// save, took a child's save, rolled back, reset, undid or redid, or
    /// ``processPendingChanges()`` was called. Closes the undo manager's open event group.
    func didProcessChanges() {
        undoManager?.endEventGroup()
        guard !observation.listeners.isEmpty, !observation.isNotifying else { return }
        observation.isNotifying = true
        defer { observation.isNotifying = false }
        for entry in observation.listeners {
            entry.listener?.contextDidProcessChanges(self)
        }
    }
}

/// Something a context tells when it processed changes (a ``FetchedResultsController``).
protocol ContextChangeListener: AnyObject {
    func contextDidProcessChanges(_ context: ManagedContext)
}
