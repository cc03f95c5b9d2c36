/// A scratchpad of managed objects: it tracks inserts, changes and deletes until ``save()``
/// commits them to the store, or ``rollback()`` discards them.
///
/// A context holds one object instance per ``ObjectID`` (uniquing). It is not `Sendable`: use
/// it in one isolation domain, get one per domain from ``PersistentContainer/newContext()``, and
/// pass ``ObjectID``s between domains.
///
/// For example:
/// ```swift
/// let context = container.newContext()
/// let apple = Fruit(context: context)
/// apple.name = "Apple"
/// try context.save()
/// ```
///
/// Core Data: `NSManagedObjectContext`.
public final class ManagedContext {
    let coordinator: StoreCoordinator
    /// The context a child context saves into; `nil` for a context that saves to the store.
    let parent: ManagedContext?
    /// A name for debugging and for telling contexts apart in save notifications.
    public var name: String?
    /// How saves resolve conflicts with other contexts' changes and uniqueness constraints;
    /// `.error` (the default) refuses a conflicting save.
    ///
    /// Core Data: `NSManagedObjectContext.mergePolicy`.
    public var mergePolicy: MergePolicy = .error
    /// The registered objects; read through `registry`, which first makes the deferred deletes
    /// objects (see `ManagedContext+DeferredDeletes.swift`).
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var registryStorage = ObjectRegistry()
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var inserted: Set<ManagedObject> = []
    /// The deleted objects; read through `deleted`, which first makes the deferred deletes objects.
    /// By identity, not hashed with SipHash: a cascade adds one per deleted object.
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var deletedStorage = ObjectIdentitySet<ManagedObject>()
    /// Saved objects a cascade deleted without making them objects; see
    /// `ManagedContext+DeferredDeletes.swift`.
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var deferredDeletes = DeferredDeletes()
    /// Objects whose values were set since the last save; some may have been set back.
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var touched = ObjectIdentitySet<ManagedObject>()
    /// `inserted` and `deleted` in the order the calls happened, so that a save need not sort
    /// them; valid while the matching flag is set (an object leaving a set clears it).
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var insertionOrder: [ManagedObject] = []
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var deletionOrder: [ManagedObject] = []
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var insertionOrderIsExact = true
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var deletionOrderIsExact = true
    /// Open while a save or another all-or-nothing operation runs; see `withChangeJournal`.
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var journal: Journal?
    /// The cascades of the delete in progress that wait for the outermost one.
    var cascades = PendingCascades()
    /// Observation key paths and fetched-results controllers; see `ManagedContext+Observation.swift`.
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var observation = ObservationState()

    /// Records this context's changes so that they can be undone and redone; `nil` (the default)
    /// records nothing and costs nothing. Assign a ``ContextUndoManager`` to turn undo on; one
    /// manager serves one context (assigning one that serves another context is a programmer
    /// error that stops the program).
    ///
    /// Core Data: `NSManagedObjectContext.undoManager`.
    public var undoManager: ContextUndoManager? {
        get { undoRecorder }
        set {
            guard newValue !== undoRecorder else { return }
            undoRecorder?.context = nil
            if let newValue {
                precondition(
                    newValue.context == nil, "A ContextUndoManager serves one context; make one per context.")
                newValue.context = self
            }
            undoRecorder = newValue
        }
    }
    /// The storage of ``undoManager``, read on every change (unchecked, as the context is used
    /// from one isolation domain at a time).
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var undoRecorder: ContextUndoManager?

    /// Tells this context apart in save notifications.
    public let identifier: ContextIdentifier

    /// Whether the context merges every other context's saves on its own: at the start of its
    /// next fetch, count, object lookup or save, in its own isolation domain.
    ///
    /// Core Data: `NSManagedObjectContext.automaticallyMergesChangesFromParent`.
    public var automaticallyMergesChanges = false {
        didSet {
            guard automaticallyMergesChanges != oldValue else { return }
            if automaticallyMergesChanges {
                let inbox = SaveInbox()
                self.inbox = inbox
                coordinator.broadcaster.addInbox(inbox, for: identifier.number)
            } else {
                coordinator.broadcaster.removeInbox(for: identifier.number)
                inbox = nil
            }
        }
    }
    // Unchecked: touched on every change; contexts stay in one domain, no access overlaps.
    @exclusivity(unchecked) var inbox: SaveInbox?

    init(coordinator: StoreCoordinator, name: String? = nil, parent: ManagedContext? = nil) {
        self.coordinator = coordinator
        self.parent = parent
        self.name = name
        self.identifier = ContextIdentifier(number: coordinator.broadcaster.nextContextNumber(), name: name)
    }

    deinit {
        if inbox != nil { coordinator.broadcaster.removeInbox(for: identifier.number) }
        registryStorage.forEach { $0.context = nil }
    }

    /// The model of the context's container.
    public var model: ManagedObjectModel { coordinator.model }

    // MARK: - Changes

    /// Whether the context has unsaved inserts, updates or deletes.
    ///
    /// Core Data: `NSManagedObjectContext.hasChanges`.
    public var hasChanges: Bool {
        !inserted.isEmpty || !deletedStorage.isEmpty || !deferredDeletes.isEmpty || touched.contains { $0.isUpdated }
    }

    /// The objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { inserted }

    /// The objects whose values changed since the last save (not inserted or deleted ones).
    public var updatedObjects: Set<ManagedObject> { Set(touched.lazy.filter(\.isUpdated)) }

    /// The objects marked for deletion at the next save.
    public var deletedObjects: Set<ManagedObject> { Set(deleted) }

    /// Every object the context currently holds.
    public var registeredObjects: Set<ManagedObject> { Set(registry.values) }

    /// Records that `object`'s values were set.
    func didChange(_ object: ManagedObject) {
        // Inserted objects are saved whole; only saved objects need their changes tracked.
        guard !object.flags.isTouched, !object.flags.isInserted, !object.flags.isMissing else { return }
        object.flags.isTouched = true
        touched.insert(object)
    }

    // MARK: - Insert and delete

    /// Inserts a detached object; it is saved with the next ``save()``. Inserting an object the
    /// context already holds does nothing. A detached object's relationships start empty, since
    /// the objects they named belong to another context.
    ///
    /// An object of another context, a deleted object of this one, an object of an entity the
    /// model does not contain, or of a class other than the entity's, is a programmer error that
    /// stops the program, as Core Data raises. See "Programmer errors" in Docs/Validation.md.
    ///
    /// Core Data: `NSManagedObjectContext.insert(_:)`.
    public func insert(_ object: ManagedObject) {
        if object.context === self {
            precondition(
                !object.flags.isDeleted,
                "\(object.objectID) is deleted; insert cannot undo a delete. Use rollback() to discard it.")
            return
        }
        precondition(
            object.context == nil,
            "\(object.objectID) belongs to another context. Insert objects into one context only; "
                + "use existingObject(with:) to get the same object in another context.")
        let own =
            object.info.index >= 0 && object.info.index < model.infos.count
            && model.infos[object.info.index] === object.info
        guard let info = own ? object.info : model.info(named: object.info.name),
            info.propertyCount == object.values.count
        else {
            preconditionFailure(
                "Entity '\(object.info.name)' is not in the context's model. Add it to the model first.")
        }
        precondition(
            info.managedObjectClass == ManagedObject.self || type(of: object) == info.managedObjectClass,
            "Entity '\(info.name)' is represented by \(info.managedObjectClass); insert objects of that class, not \(type(of: object))."
        )
        object.info = info
        for slot in info.attributeCount..<info.propertyCount { object.values[slot] = info.defaultValues[slot] }
        object.objectID = ObjectID(entityName: info.name, key: coordinator.allocateKey(entityIndex: info.index))
        object.context = self
        object.committed = nil
        object.version = 0
        object.flags = ManagedObject.Flags(isInserted: true)
        if inserted.isEmpty {
            // Skip the first few doublings of a batch of inserts.
            inserted.reserveCapacity(16)
            insertionOrder.reserveCapacity(16)
        }
        // Not `registry`: the key is new, so no deferred delete can hold it, and they stay rows.
        registryStorage[object.objectID] = object
        inserted.insert(object)
        insertionOrder.append(object)
        undoManager?.recordInsert(object)
        object.awakeFromInsert()
    }

    /// Marks an object for deletion at the next save, calls its
    /// ``ManagedObject/prepareForDeletion()``, and applies its relationships' delete
    /// rules now: `nullify` removes it from the inverse relationships, `cascade` deletes the
    /// destinations, `deny` is checked at save. Deleting an unsaved inserted object discards it
    /// and leaves no change behind.
    ///
    /// An object of another context (or none) is a programmer error that stops the program, as
    /// Core Data raises.
    ///
    /// Core Data: `NSManagedObjectContext.delete(_:)`.
    public func delete(_ object: ManagedObject) {
        precondition(
            object.context === self,
            "\(object.objectID) is not in this context. Delete objects in the context that holds them.")
        guard !object.flags.isDeleted, !object.flags.isMissing else { return }
        undoManager?.recordDelete(object)
        object.flags.isDeleted = true
        object.observationDidDelete()
        object.prepareForDeletion()
        applyDeleteRules(of: object)
        withdraw(object)
    }

    /// Takes an unsaved inserted object out of the context, or queues a saved object (already
    /// flagged deleted) for deletion at the next save.
    func withdraw(_ object: ManagedObject) {
        if object.flags.isInserted {
            inserted.remove(object)
            insertionOrderIsExact = false
            unregister(object)
            object.flags = ManagedObject.Flags()
        } else {
            if deletedStorage.isEmpty {
                // Skip the first few doublings of a batch of deletes.
                deletionOrder.reserveCapacity(16)
            }
            deletedStorage.insert(object)
            deletionOrder.append(object)
        }
    }

    /// Ends the current user event: merges pending saves (with ``automaticallyMergesChanges``),
    /// closes the undo manager's event group and brings every ``FetchedResultsController`` of this
    /// context up to date with its unsaved changes. (Delete rules need no processing: ObjectGraph
    /// applies them as each object is deleted.)
    ///
    /// Core Data: `NSManagedObjectContext.processPendingChanges()`.
    public func processPendingChanges() {
        // A store that cannot say what other processes saved: the next fetch or save throws why.
        try? mergePendingSaves()
        didProcessChanges()
    }

    private func applyDeleteRules(of object: ManagedObject) {
        var actions = ContextDeleteActions(context: self)
        for (offset, relationship) in object.info.relationships.enumerated() {
            actions.applyDeleteRule(
                of: relationship, deleting: object.objectID,
                targets: object.relatedIDs(at: object.info.attributeCount + offset))
        }
    }

    /// Forgets every pending insert and delete.
    func clearPendingInsertsAndDeletes() {
        inserted.removeAll()
        deletedStorage.removeAll()
        discardDeferredDeletes()
        insertionOrder.removeAll()
        deletionOrder.removeAll()
        insertionOrderIsExact = true
        deletionOrderIsExact = true
    }

    /// The pending inserts in the order they happened.
    var orderedInsertedObjects: [ManagedObject] {
        insertionOrderIsExact ? insertionOrder : inserted.sorted { $0.objectKey < $1.objectKey }
    }

    /// The pending deletes in the order they happened.
    var orderedDeletedObjects: [ManagedObject] {
        materializeDeferredDeletes()
        return deletionOrderIsExact ? deletionOrder : deletedStorage.sorted { $0.objectKey < $1.objectKey }
    }

    /// Drops an object from the context; it keeps its values but no longer has a context.
    func unregister(_ object: ManagedObject) {
        registryStorage.remove(object)
        if object.flags.isTouched { touched.remove(object) }
        object.flags.isTouched = false
        object.context = nil
    }
}

// Not Sendable, on purpose: the unavailable conformance makes the compiler refuse to pass contexts
// across isolation domains (the `@unchecked` is never used, as the conformance cannot be).
@available(*, unavailable, message: "A context belongs to one isolation domain; create one per domain instead.")
extension ManagedContext: @unchecked Sendable {}

/// The delete rules carried out on a context's registered objects as each object is deleted:
/// `nullify` and `cascade` change the related objects at once (so the context, its undo manager
/// and observers see them), `deny` is checked when the context saves
/// (`ManagedContext+Validation`).
struct ContextDeleteActions: DeleteRuleActions {
    unowned let context: ManagedContext

    func nullify(_ source: ObjectID, inverseSlot: Int, of targets: [ObjectID], destinationIndex: Int) {
        let destination = context.model.infos[destinationIndex]
        context.forEachExisting(targets) { target in
            // A target of a sub-entity has the inverse at its own slot.
            target.removeRelated(source, at: destination.slot(inverseSlot, in: target.info))
        }
    }

    func cascade(from source: ObjectID, to targets: [ObjectID], through relationship: EntityInfo.ResolvedRelationship) {
        guard context.cascades.depth < PendingCascades.maximumDepth else {
            context.cascades.waiting.append(.init(source: source, targets: targets, relationship: relationship))
            return
        }
        context.cascades.depth += 1
        defer { context.cascades.depth -= 1 }
        carryOut(from: source, to: targets, through: relationship)
        guard context.cascades.depth == 1 else { return }
        // The outermost cascade: the chains that went too deep go on from here.
        var next = 0
        while next < context.cascades.waiting.count {
            let cascade = context.cascades.waiting[next]
            next += 1
            carryOut(from: cascade.source, to: cascade.targets, through: cascade.relationship)
        }
        context.cascades.waiting = []
    }

    private func carryOut(
        from source: ObjectID, to targets: [ObjectID], through relationship: EntityInfo.ResolvedRelationship
    ) {
        func deleteObject(_ target: ManagedObject) {
            if relationship.inverseSlot != nil, !Self.unlink(target, from: source, inverseOf: relationship) {
                target.removeRelated(source, inverseOf: relationship)
            }
            context.delete(target)
        }
        if context.canDeferDeletes {
            context.cascadeDeferring(from: source, to: targets, through: relationship, deleteObject: deleteObject)
        } else {
            context.forEachExisting(targets, deleteObject)
        }
    }

    func deny(_ source: ObjectID, through relationship: EntityInfo.ResolvedRelationship, targets: [ObjectID]) {
        // Checked at save, when the targets may have been deleted or unlinked since.
    }

    /// Removes `id` from `target`'s side of `relationship` (a relationship of `id`'s entity
    /// whose inverse this object has), as `removeRelated(_:inverseOf:)` does, but without
    /// recording a change: for an object that a cascade deletes right after, so that it does
    /// not join the context's touched objects only to leave them at the save. `rollback()`
    /// restores a deleted object's saved values whether it was touched or not.
    ///
    /// Returns `false`, changing nothing, when something must see the change as it happens: a
    /// change journal (an all-or-nothing operation), an undo manager or an observer; the caller
    /// then uses `removeRelated(_:inverseOf:)`.
    static func unlink(
        _ target: ManagedObject, from id: ObjectID, inverseOf relationship: EntityInfo.ResolvedRelationship
    ) -> Bool {
        guard let context = target.context, context.journal == nil, context.undoRecorder == nil,
            target.observationRegistrar == nil, !target.flags.isInserted, !target.flags.isDeleted,
            !target.flags.isMissing
        else { return false }
        guard let slot = relationship.inverseSlot(in: target.info) else { return true }
        switch target.values[slot] {
        case .object(let current) where current == id:
            target.values[slot] = .null
        case .objects(var ids):
            guard let index = ids.firstIndex(of: id) else { return true }
            target.values[slot] = .null  // drops the array's second reference, so the removal needs no copy
            ids.remove(at: index)
            target.values[slot] = .objects(ids)
        default:
            break
        }
        return true
    }
}
