/// A medium that keeps committed object data: memory, a file, or nothing at all.
///
/// A store serves one container at a time. The container calls ``load(model:)`` once when it
/// opens, ``save(_:)`` for each commit (serialised: never two at once), and ``close()`` when
/// the last context using it goes away. Implement it to plug in a medium of your own, or a test
/// double that fails or records saves.
///
/// For example:
/// ```swift
/// let container = try PersistentContainer(model: model, store: InMemoryStore())
/// ```
public protocol PersistentStore: AnyObject, Sendable {
    /// Opens the store for one container and returns everything it holds.
    ///
    /// - Throws: `PersistenceError.Code.storeInUse` or `.storeLocked` if another live container
    ///   has it open; `.modelMismatch` if the data was written with a different schema; and the
    ///   medium's own read errors.
    func load(model: ManagedObjectModel) throws -> StoreSnapshot

    /// Makes one change set durable: all of it, or none of it if it throws.
    func save(_ changes: StoreChangeSet) throws

    /// Releases the store so that another container can open it.
    func close()

    /// Whether the store was opened read-only: it never writes its medium, and every save throws
    /// `PersistenceError.Code.readOnlyStore`. `false` unless a store says otherwise.
    ///
    /// Core Data: `NSPersistentStore.isReadOnly`.
    var isReadOnly: Bool { get }
}

extension PersistentStore {
    /// `false`: a store is writable unless it says otherwise.
    public var isReadOnly: Bool { false }
}
