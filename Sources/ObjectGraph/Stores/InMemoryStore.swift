/// A store that keeps committed data in memory for as long as the store object lives.
///
/// Each new instance starts empty, so each test gets its own. Handing the same instance to a new
/// container after the previous one is gone finds the data there: an app relaunch without a disk.
///
/// For example:
/// ```swift
/// let store = InMemoryStore()
/// do {
///     let container = try PersistentContainer(model: model, store: store)
///     …  // insert and save
/// }
/// let relaunched = try PersistentContainer(model: model, store: store)  // same data
/// ```
///
/// Core Data: `NSInMemoryStoreType`, which loses its data with its coordinator; this one does not.
public final class InMemoryStore: PersistentStore {
    private struct State {
        var snapshot: StoreSnapshot?
        var isOpen = false
    }

    private let state = Locked(State())

    /// Creates an empty store.
    /// Whether saves are refused (with `PersistenceError.Code.readOnlyStore`); a read-only
    /// instance serves what an earlier, writable container saved to it.
    public let isReadOnly: Bool

    /// A new, empty store; with `isReadOnly`, one whose every save throws.
    public init(isReadOnly: Bool = false) {
        self.isReadOnly = isReadOnly
    }

    /// Whether a live container has the store open.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// The number of objects committed to the store.
    public var objectCount: Int { state.withLock { $0.snapshot?.count ?? 0 } }

    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        try state.withLock { state in
            guard !state.isOpen else { throw PersistenceError.storeInUse("This InMemoryStore") }
            let snapshot = try state.snapshot?.rebound(to: model) ?? StoreSnapshot(model: model)
            state.isOpen = true
            return snapshot
        }
    }

    public func save(_ changes: StoreChangeSet) throws {
        guard !isReadOnly else { throw PersistenceError.readOnlyStore("This InMemoryStore", url: nil) }
        state.withLock { $0.snapshot = changes.snapshot }
    }

    public func close() {
        state.withLock { $0.isOpen = false }
    }
}
