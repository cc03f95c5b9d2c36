/// The delete rules carried out on a context's registered objects as each object is deleted:
/// `nullify` and `cascade` change the related objects at once (so the context, its undo manager
/// and observers see them), `deny` is checked when the context saves
/// (`ManagedContext+Validation`).
struct ContextDeleteActions: DeleteRuleActions {
    unowned let context: ManagedContext

    func nullify(_ source: ObjectID, inverseSlot: Int, of targets: [ObjectID], destinationIndex: Int) {
        for id in targets {
            context.existingOrNil(id)?.removeRelated(source, at: inverseSlot)
        }
    }

    func cascade(from source: ObjectID, to targets: [ObjectID], through relationship: EntityInfo.ResolvedRelationship) {
        for id in targets {
            guard let target = context.existingOrNil(id) else { continue }
            if let inverseSlot = relationship.inverseSlot {
                target.removeRelated(source, at: inverseSlot)
            }
            context.delete(target)
        }
    }

    func deny(_ source: ObjectID, through relationship: EntityInfo.ResolvedRelationship, targets: [ObjectID]) {
        // Checked at save, when the targets may have been deleted or unlinked since.
    }
}
