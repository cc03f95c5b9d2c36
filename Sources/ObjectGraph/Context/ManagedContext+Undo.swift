extension ManagedContext {
    /// Applies one action of an undo or redo, without delete rules or inverse updates (those
    /// were recorded as actions of their own).
    func applyUndoAction(_ action: ContextUndoManager.Action) {
        switch action {
        case .value(let object, let slot, _, let new):
            object.setStoreValue(new, at: slot)
        case .insert(let object):
            bringBack(object)
        case .delete(let object):
            takeAway(object)
        }
    }

    /// Makes a deleted or removed object exist again: a pending delete is cancelled; an object
    /// that left the context (an undone insert, a saved delete) is inserted again, with its ID.
    private func bringBack(_ object: ManagedObject) {
        if object.context === self {
            guard object.flags.isDeleted else { return }
            object.flags.isDeleted = false
            deleted.remove(object)
            deletionOrderIsExact = false
        } else {
            guard object.context == nil, registry[object.objectID] == nil else { return }
            object.context = self
            object.committed = nil
            object.version = 0
            object.flags = ManagedObject.Flags(isInserted: true)
            registry[object.objectID] = object
            inserted.insert(object)
            insertionOrder.append(object)
        }
        object.observationDidDelete()
    }

    /// Makes an object go away: an unsaved insert leaves the context, a saved object is marked
    /// for deletion.
    private func takeAway(_ object: ManagedObject) {
        guard object.context === self else { return }
        if !object.flags.isInserted {
            guard !object.flags.isDeleted, !object.flags.isMissing else { return }
            object.flags.isDeleted = true
        }
        withdraw(object)
        object.observationDidDelete()
    }
}
