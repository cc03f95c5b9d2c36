extension ManagedContext {
    /// What a context keeps for observers: the fetched-results controllers (held weakly) to tell
    /// when it processed changes.
    struct ObservationState {
        var listeners: [WeakListener] = []
        /// Whether listeners are being told, so that changes they make wait for the next round.
        var isNotifying = false
        /// Whether `processingChangesOnce` runs, so that listeners are told once, at its end.
        var isDeferring = false
        /// The objects whose values were replaced since the listeners were last told (see
        /// `noteReplacedValues(of:)`).
        var replacedObjectIDs: [ObjectID] = []
        /// How many times the context was reset: its objects then are new instances.
        var resets = 0
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
        guard !observation.listeners.isEmpty, !observation.isNotifying, !observation.isDeferring else { return }
        observation.isNotifying = true
        defer { observation.isNotifying = false }
        for entry in observation.listeners {
            entry.listener?.contextDidProcessChanges()
        }
        observation.replacedObjectIDs.removeAll()
    }
}

extension ManagedContext {
    /// Runs `body`, which processes changes several times (merges a batch of saves), and tells
    /// the listeners once at the end.
    func processingChangesOnce(_ body: () -> Void) {
        guard !observation.isDeferring else { return body() }
        observation.isDeferring = true
        body()
        observation.isDeferring = false
        didProcessChanges()
    }
}
