extension ManagedContext {
    // MARK: - Creating child contexts

    /// A new child context: a scratchpad over this context whose ``save()`` commits its changes
    /// into this context, as this context's unsaved changes, instead of into the store.
    ///
    /// The child sees this context's current state: fetches include this context's unsaved
    /// inserts and changes and leave out its pending deletes, and ``object(with:)`` resolves the
    /// objects this context holds, its unsaved inserts included (object IDs are permanent from
    /// insert). The child's own changes lie on top. Its ``save()`` validates like any save (a
    /// failure leaves the child and this context unchanged) and pushes its inserts, updates and
    /// deletes into this context; this context's ``save()`` persists them. ``rollback()``,
    /// ``reset()`` or dropping the child discards its edits. Children nest: a child's child saves
    /// into the child.
    ///
    /// A child belongs to the isolation domain of its parent: it is not `Sendable`, like any
    /// context, and its parent is used from its calls, so use both in one domain only.
    ///
    /// An object the child changed or deleted that this context changed since the child read it
    /// is a conflict, resolved by the child's ``mergePolicy`` (`.error` by default: the push is
    /// refused). An object this context deleted stays deleted. Uniqueness constraints are checked
    /// when the changes reach the store.
    ///
    /// For example, an edit sheet with Cancel:
    /// ```swift
    /// let sheet = context.newChildContext()
    /// let draft = try sheet.existingObject(with: fruit.objectID) as? Fruit
    /// draft?.name = "Pear"
    /// try sheet.save()  // Done: `context` has the change, unsaved
    /// try context.save()  // and now the store has it
    /// ```
    ///
    /// Core Data: `NSManagedObjectContext.parent`, a context of `.privateQueueConcurrencyType`
    /// or `.mainQueueConcurrencyType` whose parent is set.
    public func newChildContext(name: String? = nil) -> ManagedContext {
        ManagedContext(coordinator: coordinator, name: name, parent: self)
    }

    /// The context this context's ``save()`` commits into, or `nil` if it saves to the store.
    ///
    /// Core Data: `NSManagedObjectContext.parent`.
    public var parentContext: ManagedContext? { parent }

    // MARK: - What a context sees

    /// The committed row a context reads for `id` under its own changes: its parent's current
    /// state for a child context, the store's snapshot otherwise; `nil` if there is none.
    func baseRow(of id: ObjectID, info: EntityInfo) -> EntityTable.Row? {
        guard let parent else { return coordinator.committedRow(of: id, entityIndex: info.index) }
        return parent.visibleRow(of: id, info: info)
    }

    /// The row this context's children see for `id`: its own unsaved state of the object, else
    /// what lies beneath; `nil` for an object it deleted or that no longer exists.
    func visibleRow(of id: ObjectID, info: EntityInfo) -> EntityTable.Row? {
        if let object = registry[id], object.hasUnsavedState {
            guard !object.flags.isDeleted, !object.flags.isMissing else { return nil }
            return EntityTable.Row(version: object.version, values: object.values)
        }
        return baseRow(of: id, info: info)
    }

    /// The pending inserts (in key order, live ones only) and the changed, inserted or deleted
    /// objects by key of `info`'s entity, over every ancestor and (when `includingOwn`) this
    /// context: the nearest context's object wins.
    func layeredChanges(of info: EntityInfo, includingOwn: Bool) -> (
        pending: [ManagedObject], overrides: [Int64: ManagedObject]
    ) {
        var levels: [ManagedContext] = []
        var level = includingOwn ? self : parent
        while let current = level {
            levels.append(current)
            level = current.parent
        }
        var overrides: [Int64: ManagedObject] = [:]
        var insertedKeys: Set<Int64> = []
        for current in levels.reversed() {
            for object in current.inserted where object.info.index == info.index {
                overrides[object.objectKey] = object
                insertedKeys.insert(object.objectKey)
            }
            for object in current.touched where object.info.index == info.index { overrides[object.objectKey] = object }
            for object in current.deleted where object.info.index == info.index { overrides[object.objectKey] = object }
        }
        let pending = insertedKeys.sorted().compactMap { key -> ManagedObject? in
            guard let object = overrides[key], !object.flags.isDeleted, !object.flags.isMissing else { return nil }
            return object
        }
        return (pending, overrides)
    }

    // MARK: - Saving into the parent

    /// Validates this child's changes and commits them into `parent`, all or nothing.
    func push(into parent: ManagedContext) throws {
        let (insertedObjects, updatedObjects, deletedObjects) = try withChangeJournal {
            for object in inserted { object.willSave() }
            for object in touched where object.isUpdated { object.willSave() }
            for object in deleted { object.willSave() }
            let insertedObjects = orderedInsertedObjects
            let updatedObjects = touched.filter(\.isUpdated).sorted { $0.objectKey < $1.objectKey }
            let deletedObjects = orderedDeletedObjects
            try validate(inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects)
            try parent.withChangeJournal {
                try parent.absorb(
                    inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects, policy: mergePolicy)
            }
            return (insertedObjects, updatedObjects, deletedObjects)
        }

        for object in touched { object.flags.isTouched = false }
        touched.removeAll()
        clearPendingInsertsAndDeletes()
        // The child's objects now mirror the parent: what it saved is what it read.
        for object in insertedObjects + updatedObjects {
            object.flags.isInserted = false
            if let row = parent.visibleRow(of: object.objectID, info: object.info) {
                object.replaceValues(row.values)
                object.committed = row.values
                object.version = row.version
            } else {
                object.committed = object.values
                object.flags.isMissing = true
            }
        }
        for object in deletedObjects {
            if let row = parent.visibleRow(of: object.objectID, info: object.info) {
                // The parent kept the object (a store-trump policy dropped the delete).
                object.flags.isDeleted = false
                object.replaceValues(row.values)
                object.observationDidDelete()
                object.committed = row.values
                object.version = row.version
            } else {
                unregister(object)
            }
        }
        for objects in [insertedObjects, updatedObjects, deletedObjects] {
            for object in objects { object.didSave() }
        }
        parent.didProcessChanges()
        didProcessChanges()
    }

    /// Takes a child's changes as this context's unsaved changes, resolving conflicts by
    /// `policy`; throws before changing anything if `policy` refuses a conflict.
    private func absorb(
        inserted newObjects: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], policy: MergePolicy
    ) throws {
        // 1. Decide every write before making any.
        var conflicts: [PersistenceError] = []
        var updates: [(ManagedObject, [StoreValue])] = []
        var deletes: [ManagedObject] = []
        for object in updated {
            let current = visibleRow(of: object.objectID, info: object.info)?.values
            let original = object.committed ?? object.values
            if current == original {
                updates.append((object, object.values))
                continue
            }
            guard policy != .error else {
                conflicts.append(.changedInParent(object.objectID, deleted: current == nil))
                continue
            }
            // An object the parent deleted stays deleted: reviving it would break its inverses.
            guard let current else { continue }
            switch policy {
            case .storeTrump:
                continue
            case .objectTrump, .error:
                updates.append((object, object.values))
            case .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
                var values = current
                for slot in values.indices where object.values[slot] != original[slot] {
                    if policy == .mergeByPropertyObjectTrump || current[slot] == original[slot] {
                        values[slot] = object.values[slot]
                    }
                }
                updates.append((object, values))
            }
        }
        for object in deleted {
            guard let current = visibleRow(of: object.objectID, info: object.info)?.values else { continue }
            if current == (object.committed ?? object.values) || policy.objectWins {
                deletes.append(object)
            } else if policy == .error {
                conflicts.append(.changedInParent(object.objectID, deleted: false))
            }
        }
        guard conflicts.isEmpty else { throw PersistenceError.conflicts(conflicts) }

        // 2. Apply them: inserts first, so that updates and deletes can refer to them.
        for object in newObjects {
            let copy = object.info.managedObjectClass.init(
                entity: object.info.materializingDescription, insertInto: nil)
            copy.objectID = object.objectID
            copy.values = object.values
            copy.context = self
            copy.flags = ManagedObject.Flags(isInserted: true)
            registry[copy.objectID] = copy
            inserted.insert(copy)
            insertionOrder.append(copy)
            undoManager?.recordInsert(copy)
        }
        for (object, values) in updates {
            guard let target = existingOrNil(object.objectID), !target.isDeleted else { continue }
            recordBeforeChange(target)
            if let undoManager {
                for slot in values.indices where target.values[slot] != values[slot] {
                    undoManager.recordChange(of: target, at: slot, from: target.values[slot], to: values[slot])
                }
            }
            target.replaceValues(values)
            didChange(target)
        }
        for object in deletes {
            guard let target = existingOrNil(object.objectID), !target.isDeleted else { continue }
            delete(target)
        }
    }
}
