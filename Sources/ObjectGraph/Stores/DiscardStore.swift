/// The `/dev/null` store: every save succeeds and nothing is kept.
///
/// Each container starts empty; within a container, saved objects can be fetched as usual, since
/// the container keeps its committed state in memory. Use it for previews, benchmarks and tests
/// that must never touch data. Any number of containers may use one instance at once.
///
/// For example:
/// ```swift
/// let container = try PersistentContainer(model: model, storeDescription: .discard)
/// ```
///
/// Core Data: a SQLite store at `URL(fileURLWithPath: "/dev/null")`.
public final class DiscardStore: PersistentStore, SnapshotPersistingStore {
    /// Creates a discard store.
    /// Whether saves are refused (with `PersistenceError.Code.readOnlyStore`) rather than
    /// discarded.
    public let isReadOnly: Bool

    /// A store that discards every save; with `isReadOnly`, one whose every save throws.
    public init(isReadOnly: Bool = false) {
        self.isReadOnly = isReadOnly
    }

    /// Opens the store for one container and returns everything it holds.
    public func load(model: ManagedObjectModel) throws -> StoreSnapshot { StoreSnapshot(model: model) }

    /// Makes one change set durable: all of it, or none of it if it throws.
    public func save(_ changes: StoreChangeSet) throws {
        guard !isReadOnly else { throw PersistenceError.readOnlyStore("This DiscardStore", url: nil) }
    }

    /// Releases the store so that another container can open it.
    public func close() {}
}
