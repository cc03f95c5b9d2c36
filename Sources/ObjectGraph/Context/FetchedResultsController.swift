import Observation

/// Keeps the results of a fetch request current as its context changes, and reports each round
/// of changes as inserted, deleted, moved and updated indexes.
///
/// Call ``performFetch()`` once; from then on the controller follows its context. Like Core
/// Data's, it takes in the context's changes when the context processes them: when it saves,
/// merges another context's save (``ManagedContext/mergeChanges(from:)``, or a pending save of
/// ``ManagedContext/automaticallyMergesChanges``), takes a child context's save, rolls back,
/// resets, undoes or redoes, and when ``ManagedContext/processPendingChanges()`` is called (call
/// it after editing without saving to show unsaved edits). The results always equal what
/// ``ManagedContext/fetch(_:)`` returns (with the context's unsaved changes, as every fetch
/// does): sort descriptors, predicate and fetch limit and offset all apply. A round looks only at
/// the objects that changed (the container's saves, the context's pending changes, refreshed
/// objects): their membership and position, found by binary search. A request with a fetch limit
/// or offset, in a child context, with a `#Predicate` part evaluated in Swift, or whose key paths
/// lead back to its entity, and a round in which an object the request reads through a
/// relationship changed, fetch the request again instead. If the round changed anything,
/// ``fetchedObjects`` takes the new results, and ``onChange`` and every ``changes`` stream
/// receive a ``FetchedResultsChanges``.
///
/// The controller is `Observable`: a view that reads ``fetchedObjects`` is invalidated when they
/// change. The context does not keep it alive; it stops following the context when released.
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.sortDescriptors = [SortDescriptor(key: "name")]
/// let controller = FetchedResultsController(fetchRequest: request, context: context)
/// try controller.performFetch()
/// controller.onChange = { changes in print(changes.inserted) }
/// ```
///
/// With a `sectionNameKeyPath`, ``sections`` groups the results, and each round's changes say
/// which sections came and went.
///
/// - Complexity: a round costs O(*k* log *n*) for *k* changed objects among *n* results, plus
///   moving the array elements after each inserted, deleted or moved result; a round that fetches
///   again costs the fetch plus O(*n* log *n*) when objects moved, O(*n*) otherwise.
///
/// Core Data: `NSFetchedResultsController` (without a cache).
public final class FetchedResultsController<Result: ManagedObject> {
    /// The request whose results the controller keeps.
    ///
    /// Core Data: `NSFetchedResultsController.fetchRequest`.
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller fetches in and follows.
    ///
    /// Core Data: `NSFetchedResultsController.managedObjectContext`.
    public let context: ManagedContext
    /// The key path whose value names each object's section; `nil` for one section.
    ///
    /// Core Data: `NSFetchedResultsController.sectionNameKeyPath`.
    public let sectionNameKeyPath: String?

    /// Called with each round's changes, after ``fetchedObjects`` took the new results.
    ///
    /// Core Data: `NSFetchedResultsControllerDelegate`.
    public var onChange: ((FetchedResultsChanges) -> Void)?

    /// The error of the last round's fetch, if it failed (the results then stay as they were);
    /// `nil` after a successful round.
    public private(set) var lastError: (any Error)?

    var objects: [Result] = []
    /// The values of `objects` when they were last reported, to tell updated objects.
    var reportedValues: [[StoreValue]] = []
    private(set) var isFetched = false
    /// The sections of `objects` as of the last round (made then, or when first read).
    var sectionCache: [FetchedResultsSection<Result>]?
    private var continuations: [AsyncStream<FetchedResultsChanges>.Continuation] = []
    let registrar = ObservationRegistrar()
    /// What updates the results from the changed objects alone; `nil` when each round re-runs the
    /// fetch (see `FetchedResultsController+Incremental.swift`).
    var tracking: FetchedResultsTracking?
    /// How many rounds re-ran the fetch (for tests: the others updated from changed objects).
    private(set) var roundsFetchedWhole = 0

    /// A controller for the results of `fetchRequest` in `context`, in sections by
    /// `sectionNameKeyPath` (an attribute, or a key path through to-one relationships) if given;
    /// it fetches nothing until ``performFetch()``.
    ///
    /// Core Data: `NSFetchedResultsController.init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)`.
    public init(fetchRequest: FetchRequest<Result>, context: ManagedContext, sectionNameKeyPath: String? = nil) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    deinit {
        stopTracking()
        for continuation in continuations { continuation.finish() }
    }

    /// The objects the request selects, as of the context's last processed changes; empty until
    /// ``performFetch()``. Reading it inside `withObservationTracking` registers it.
    ///
    /// Core Data: `NSFetchedResultsController.fetchedObjects`.
    public var fetchedObjects: [Result] {
        registrar.access(self, keyPath: \.fetchedObjects)
        return objects
    }

    /// A stream of every later round's changes; each access returns a new stream, which ends
    /// when the controller is released.
    ///
    /// For example:
    /// ```swift
    /// for await changes in controller.changes {
    ///     print(changes.updated)
    /// }
    /// ```
    public var changes: AsyncStream<FetchedResultsChanges> {
        let (stream, continuation) = AsyncStream<FetchedResultsChanges>.makeStream()
        continuations.append(continuation)
        return stream
    }

    /// Fetches the results and starts following the context. Calling it again fetches again and
    /// reports what changed since the last results, like any round.
    ///
    /// - Throws: what ``ManagedContext/fetch(_:)`` throws for the request; for a
    ///   `sectionNameKeyPath` the entity cannot read as one value, `PersistenceError.Code.unknownKey`
    ///   or `.invalidFetchRequest` (a to-many relationship), naming it. The controller then keeps
    ///   its previous results and does not follow the context yet.
    ///
    /// Core Data: `NSFetchedResultsController.performFetch()`.
    public func performFetch() throws {
        if let sectionNameKeyPath {
            let info = try fetchRequest.entity(in: context.model)
            _ = try FetchedProperty.resolve([sectionNameKeyPath], entity: info, model: context.model)
        }
        startTracking()
        _ = tracking?.inbox.takeAll()  // The fetch sees every save until now.
        let results: [Result]
        do {
            results = try context.fetch(fetchRequest)
        } catch {
            if !isFetched {
                stopTracking()
                tracking = nil
            }
            throw error
        }
        lastError = nil
        if !isFetched {
            isFetched = true
            context.addChangeListener(self)
        }
        take(results)
    }

    /// The index of `object` in ``fetchedObjects``, or `nil` if it is not among them.
    ///
    /// - Complexity: O(*n*).
    ///
    /// Core Data: `NSFetchedResultsController.indexPath(forObject:)`.
    public func index(of object: Result) -> Int? {
        objects.firstIndex { $0 === object }
    }

    /// Takes new results: reports what changed from the current ones, if anything.
    private func take(_ results: [Result]) {
        var changes = FetchedResultsChanges.between(old: objects, new: results) { index in
            objects[index].values != reportedValues[index]
        }
        let sameObjects = results.count == objects.count && zip(results, objects).allSatisfy { $0 === $1 }
        // Section names may change without the objects (through a relationship): made each round.
        let oldSections = sectionCache ?? Self.sections(of: objects, keyPath: sectionNameKeyPath)
        let newSections = Self.sections(of: results, keyPath: sectionNameKeyPath)
        Self.addSectionChanges(from: oldSections, to: newSections, into: &changes)
        sectionCache = newSections
        if !sameObjects {
            registrar.withMutation(of: self, keyPath: \.fetchedObjects) { objects = results }
        }
        reportedValues = objects.map(\.values)
        rebuildTracking()
        report(changes)
    }

    /// Tells `onChange` and the `changes` streams, if anything changed.
    func report(_ changes: FetchedResultsChanges) {
        guard !changes.isEmpty else { return }
        onChange?(changes)
        continuations.removeAll { continuation in
            if case .terminated = continuation.yield(changes) { return true }
            return false
        }
    }
}

extension FetchedResultsController: Observable {}

extension FetchedResultsController: ContextChangeListener {
    func contextDidProcessChanges() {
        if updateIncrementally() {
            lastError = nil
            return
        }
        roundsFetchedWhole += 1
        do {
            let results = try context.fetch(fetchRequest)
            lastError = nil
            take(results)
        } catch {
            lastError = error
            tracking?.isStale = true
        }
    }
}
