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
public final class DiscardStore: PersistentStore {
    /// Creates a discard store.
    public init() {}

    public func load(model: ManagedObjectModel) throws -> StoreSnapshot { StoreSnapshot(model: model) }

    public func save(_ changes: StoreChangeSet) throws {}

    public func close() {}
}
