/// A shared store that tells its container when another process saved, without being asked
/// (the PostgreSQL store listens for the others' `NOTIFY` on a session of its own): the container
/// then merges those saves at once, so that its save notifications, and the contexts that merge
/// automatically, see them without waiting for the next fetch.
package protocol ExternalChangeSignalingStore: ExternallyChangedStore {
    /// Calls `handler`, on a thread of the store's, soon after another process saves (and again
    /// shortly after if the store has not seen that save by then), until the store closes. The
    /// handler reads the saves with ``ExternallyChangedStore/externalChanges()``.
    func signalExternalChanges(to handler: @escaping @Sendable () -> Void)
}
