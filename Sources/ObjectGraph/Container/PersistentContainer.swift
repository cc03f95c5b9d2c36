/// Wires a model, a store and the contexts that use them together.
///
/// Create one per store and pass it (or contexts from it) to the code that needs it: there is no
/// shared instance, so two containers in one process never see each other's data and tests can
/// run in parallel. The store stays open while the container or any of its contexts lives.
///
/// For example:
/// ```swift
/// let container = try PersistentContainer(model: try ManagedObjectModel(Fruit.self),
///                                         storeDescription: .inMemory)
/// let context = container.newContext()
/// ```
///
/// Core Data: `NSPersistentContainer`.
public final class PersistentContainer: Sendable {
    /// The container's model.
    public let model: ManagedObjectModel
    let coordinator: StoreCoordinator
    @MainActor private var mainContext: ManagedContext?

    /// Opens `store` for a new container.
    ///
    /// - Throws: the store's load errors, such as `PersistenceError.Code.storeInUse` when another
    ///   live container has it open, or `.modelMismatch`.
    public init(model: ManagedObjectModel, store: any PersistentStore) throws {
        self.model = model
        self.coordinator = try StoreCoordinator(model: model, store: store)
    }

    /// Opens `store`, migrating with `migration` in place of the store's own options when given.
    init(model: ManagedObjectModel, store: any PersistentStore, migrating migration: MigrationOptions?) throws {
        self.model = model
        self.coordinator = try StoreCoordinator(model: model, store: store, migration: migration)
    }

    /// Creates the store a description names and opens it for a new container.
    ///
    /// - Throws: as ``init(model:store:)``.
    public convenience init(model: ManagedObjectModel, storeDescription: StoreDescription) throws {
        try self.init(model: model, store: storeDescription.makeStore())
    }

    /// A stream of every later save of any of the container's contexts, in commit order.
    ///
    /// Each access returns a new stream; it ends when the container and its contexts are gone.
    ///
    /// For example:
    /// ```swift
    /// for await save in container.saves {
    ///     await MainActor.run { container.viewContext.mergeChanges(from: save) }
    /// }
    /// ```
    ///
    /// Core Data: observing `NSManagedObjectContextDidSave`.
    public var saves: AsyncStream<SaveNotification> { coordinator.broadcaster.subscribe() }

    /// The store the container uses.
    public var store: any PersistentStore { coordinator.store }

    /// The context for the main actor, created on first use.
    ///
    /// Core Data: `NSPersistentContainer.viewContext`.
    @MainActor public var viewContext: ManagedContext {
        if let mainContext { return mainContext }
        let context = ManagedContext(coordinator: coordinator, name: "viewContext")
        mainContext = context
        return context
    }

    /// A new context owned by the caller, for use in one isolation domain.
    ///
    /// Core Data: `NSPersistentContainer.newBackgroundContext()`.
    public func newContext() -> ManagedContext {
        ManagedContext(coordinator: coordinator)
    }

    /// Runs `body` with a new context on a background executor and returns its result.
    ///
    /// For example:
    /// ```swift
    /// let count = try await container.performBackgroundTask { context in
    ///     try context.count(for: Fruit.fetchRequest())
    /// }
    /// ```
    ///
    /// Core Data: `NSPersistentContainer.performBackgroundTask(_:)`.
    @concurrent
    public func performBackgroundTask<T: Sendable>(
        _ body: @Sendable (ManagedContext) throws -> T
    ) async rethrows -> T {
        try body(ManagedContext(coordinator: coordinator, name: "background"))
    }
}

extension PersistentContainer {
    /// Everything committed to the container's store now, as values (O(1); for a store that
    /// answers queries, such as ``SQLiteStore``, O(*n*) to read its *n* objects): for tools,
    /// golden files and test assertions.
    ///
    /// Best effort: a store that answers queries and cannot be read now (closed, locked, damaged)
    /// gives only the rows the container has read so far. Use ``readCommittedSnapshot()`` to
    /// learn why instead.
    public func committedSnapshot() -> StoreSnapshot {
        (try? coordinator.wholeSnapshot()) ?? coordinator.snapshot()
    }

    /// Everything committed to the container's store now, as values, or the error that kept the
    /// store from giving it.
    ///
    /// For example:
    /// ```swift
    /// let json = try container.readCommittedSnapshot().jsonDocument()
    /// ```
    ///
    /// - Throws: For a store that answers queries, such as ``SQLiteStore``: `.storeClosed` once it
    ///   is closed, and its read errors (`.storeLocked`, `.corruptStore`, `.ioFailure`). Other
    ///   stores never throw.
    /// - Complexity: O(1); for a store that answers queries, O(*n*) to read its *n* objects.
    public func readCommittedSnapshot() throws -> StoreSnapshot {
        try coordinator.wholeSnapshot()
    }
}
