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
public final class InMemoryStore: PersistentStore, SnapshotPersistingStore {
    private struct State {
        var snapshot: StoreSnapshot?
        var isOpen = false
    }

    private let state = Locked(State())

    /// Creates an empty store.
    /// Whether saves are refused (with `PersistenceError.Code.readOnlyStore`); a read-only
    /// instance serves what an earlier, writable container saved to it.
    public let isReadOnly: Bool

    /// What ``load(model:)`` does when the store holds data of another model: migrate it (the
    /// default), refuse, or erase it.
    public let migration: MigrationOptions

    /// A new, empty store; with `isReadOnly`, one whose every save throws; data of another
    /// model is migrated on load as `migration` says.
    public init(isReadOnly: Bool = false, migration: MigrationOptions = .automatic) {
        self.isReadOnly = isReadOnly
        self.migration = migration
    }

    /// A store that holds `snapshot`, as if a container had saved it.
    init(snapshot: StoreSnapshot, isReadOnly: Bool = false, migration: MigrationOptions = .automatic) {
        self.isReadOnly = isReadOnly
        self.migration = migration
        state.withLock { $0.snapshot = snapshot }
    }

    /// Whether a live container has the store open.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// The number of objects committed to the store.
    public var objectCount: Int { state.withLock { $0.snapshot?.count ?? 0 } }

    /// Opens the store for one container and returns everything it holds.
    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        try load(model: model, migration: migration)
    }

    func load(model: ManagedObjectModel, migration: MigrationOptions) throws -> StoreSnapshot {
        try state.withLock { state in
            guard !state.isOpen else { throw PersistenceError.storeInUse("This InMemoryStore") }
            guard let stored = state.snapshot else {
                state.isOpen = true
                return StoreSnapshot(model: model)
            }
            let snapshot: StoreSnapshot
            if StoreMigrator.needsMigration(stored.model.entities, to: model, migration) {
                // All or nothing: the stored data is replaced only once the migration succeeded.
                snapshot = try StoreMigrator.migrate(stored, to: model, options: migration)
                if !isReadOnly { state.snapshot = snapshot }
            } else {
                snapshot = try stored.rebound(to: model)
            }
            state.isOpen = true
            return snapshot
        }
    }

    /// Makes one change set durable: all of it, or none of it if it throws.
    public func save(_ changes: StoreChangeSet) throws {
        guard !isReadOnly else { throw PersistenceError.readOnlyStore("This InMemoryStore", url: nil) }
        state.withLock { $0.snapshot = changes.snapshot }
    }

    /// Releases the store so that another container can open it.
    public func close() {
        state.withLock { $0.isOpen = false }
    }
}
