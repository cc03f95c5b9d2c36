extension ManagedObject {
    /// Removes `id` from this object's side of `relationship` (a relationship of `id`'s entity
    /// whose inverse this object has), as `removeRelated(_:inverseOf:)` does, but without
    /// recording a change: for an object that a cascade deletes right after, so that it does
    /// not join the context's touched objects only to leave them at the save. `rollback()`
    /// restores a deleted object's saved values whether it was touched or not.
    ///
    /// Returns `false`, changing nothing, when something must see the change as it happens: a
    /// change journal (an all-or-nothing operation), an undo manager or an observer; the caller
    /// then uses `removeRelated(_:inverseOf:)`.
    func unlinkBeforeCascadingDelete(_ id: ObjectID, inverseOf relationship: EntityInfo.ResolvedRelationship) -> Bool {
        guard let context, context.journal == nil, context.undoRecorder == nil, observationRegistrar == nil,
            !flags.isInserted, !flags.isDeleted, !flags.isMissing
        else { return false }
        guard let slot = relationship.inverseSlot(in: info) else { return true }
        switch values[slot] {
        case .object(let current) where current == id:
            values[slot] = .null
        case .objects(var ids):
            guard let index = ids.firstIndex(of: id) else { return true }
            values[slot] = .null  // drops the array's second reference, so the removal needs no copy
            ids.remove(at: index)
            values[slot] = .objects(ids)
        default:
            break
        }
        return true
    }
}
