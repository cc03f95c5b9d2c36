import ObjectGraph

/// A store that wraps another and records every change set saved through it, in order: a spy
/// that lets a test assert what the code under test persisted.
///
/// For example:
/// ```swift
/// let store = RecordingStore()
/// let container = try PersistentContainer.forTesting(model: model, store: store)
/// try codeUnderTest(container.newContext())
/// #expect(store.changeSets.count == 1)
/// #expect(store.insertedObjectIDs.map(\.entityName) == ["Fruit"])
/// ```
public final class RecordingStore: PersistentStore {
    /// The store that does the real work.
    public let wrapped: any PersistentStore
    private let recorded = Locked<[StoreChangeSet]>([])

    /// A recording store over `wrapped` (a fresh in-memory store by default).
    public init(wrapping wrapped: any PersistentStore = InMemoryStore()) {
        self.wrapped = wrapped
    }

    /// Every saved change set, oldest first (saves that failed in the wrapped store are not recorded).
    public var changeSets: [StoreChangeSet] { recorded.withLock { $0 } }

    /// The IDs of every object inserted, in save order.
    public var insertedObjectIDs: [ObjectID] { changeSets.flatMap { $0.inserted.map(\.objectID) } }

    /// The IDs of every object updated, in save order.
    public var updatedObjectIDs: [ObjectID] { changeSets.flatMap { $0.updated.map(\.objectID) } }

    /// The IDs of every object deleted, in save order.
    public var deletedObjectIDs: [ObjectID] { changeSets.flatMap(\.deleted) }

    /// Forgets what was recorded so far.
    public func clear() { recorded.withLock { $0.removeAll() } }

    public func load(model: ManagedObjectModel) throws -> StoreSnapshot { try wrapped.load(model: model) }

    public func save(_ changes: StoreChangeSet) throws {
        try wrapped.save(changes)
        recorded.withLock { $0.append(changes) }
    }

    public func close() { wrapped.close() }
}
