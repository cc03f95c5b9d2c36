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
    /// A name for debugging and for telling contexts apart in save notifications.
    public var name: String?
    var registry: [ObjectID: ManagedObject] = [:]
    var inserted: Set<ManagedObject> = []
    var deleted: Set<ManagedObject> = []
    /// Objects whose values were set since the last save; some may have been set back.
    var touched: Set<ManagedObject> = []

    init(coordinator: StoreCoordinator, name: String? = nil) {
        self.coordinator = coordinator
        self.name = name
    }

    deinit {
        for object in registry.values { object.context = nil }
    }

    /// The model of the context's container.
    public var model: ManagedObjectModel { coordinator.model }

    // MARK: - Changes

    /// Whether the context has unsaved inserts, updates or deletes.
    ///
    /// Core Data: `NSManagedObjectContext.hasChanges`.
    public var hasChanges: Bool {
        !inserted.isEmpty || !deleted.isEmpty || touched.contains { $0.isUpdated }
    }

    /// The objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { inserted }

    /// The objects whose values changed since the last save (not inserted or deleted ones).
    public var updatedObjects: Set<ManagedObject> { touched.filter(\.isUpdated) }

    /// The objects marked for deletion at the next save.
    public var deletedObjects: Set<ManagedObject> { deleted }

    /// Every object the context currently holds.
    public var registeredObjects: Set<ManagedObject> { Set(registry.values) }

    /// Records that `object`'s values were set.
    func didChange(_ object: ManagedObject) {
        guard !object.flags.isMissing, !object.flags.isTouched else { return }
        object.flags.isTouched = true
        touched.insert(object)
    }

    // MARK: - Insert and delete

    /// Inserts a detached object; it is saved with the next ``save()``. Inserting an object the
    /// context already holds does nothing, except that a deleted object is deleted no more.
    ///
    /// Core Data: `NSManagedObjectContext.insert(_:)`.
    public func insert(_ object: ManagedObject) {
        if object.context === self {
            if object.flags.isDeleted {
                object.flags.isDeleted = false
                deleted.remove(object)
            }
            return
        }
        precondition(
            object.context == nil,
            "\(object.objectID) belongs to another context. Insert objects into one context only; "
                + "use existingObject(with:) to get the same object in another context.")
        guard let info = model.info(named: object.info.name), info.propertyCount == object.values.count else {
            preconditionFailure(
                "Entity '\(object.info.name)' is not in the context's model. Add it to the model first.")
        }
        object.info = info
        object.objectID = ObjectID(entityName: info.name, key: coordinator.allocateKey(entityIndex: info.index))
        object.context = self
        object.committed = nil
        object.version = 0
        object.flags = ManagedObject.Flags(isInserted: true)
        registry[object.objectID] = object
        inserted.insert(object)
        object.awakeFromInsert()
    }

    /// Marks an object for deletion at the next save, and applies its relationships' delete
    /// rules now: `nullify` removes it from the inverse relationships, `cascade` deletes the
    /// destinations, `deny` is checked at save. Deleting an unsaved inserted object discards it
    /// and leaves no change behind.
    ///
    /// Core Data: `NSManagedObjectContext.delete(_:)`.
    public func delete(_ object: ManagedObject) {
        precondition(
            object.context === self,
            "\(object.objectID) is not in this context. Delete objects in the context that holds them.")
        guard !object.flags.isDeleted, !object.flags.isMissing else { return }
        object.flags.isDeleted = true
        applyDeleteRules(of: object)
        if object.flags.isInserted {
            inserted.remove(object)
            unregister(object)
        } else {
            deleted.insert(object)
        }
    }

    private func applyDeleteRules(of object: ManagedObject) {
        for (offset, relationship) in object.info.relationships.enumerated() {
            let slot = object.info.attributeCount + offset
            switch relationship.description.deleteRule {
            case .nullify:
                guard let inverseSlot = relationship.inverseSlot else { continue }
                for id in object.relatedIDs(at: slot) {
                    self.object(with: id).removeRelated(object.objectID, at: inverseSlot)
                }
            case .cascade:
                for id in object.relatedIDs(at: slot) {
                    let target = self.object(with: id)
                    if let inverseSlot = relationship.inverseSlot { target.removeRelated(object.objectID, at: inverseSlot) }
                    delete(target)
                }
            case .deny, .noAction:
                continue
            }
        }
    }

    /// Drops an object from the context; it keeps its values but no longer has a context.
    func unregister(_ object: ManagedObject) {
        registry[object.objectID] = nil
        touched.remove(object)
        object.flags.isTouched = false
        object.context = nil
    }
}

@available(*, unavailable, message: "A context belongs to one isolation domain; create one per domain instead.")
extension ManagedContext: @unchecked Sendable {}
