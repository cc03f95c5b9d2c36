/// What deleting an object does to the objects its relationships reach: Core Data's delete
/// rules, decided in one place (``applyDeleteRule(of:deleting:targets:)``) for context deletes
/// (`ManagedContext.delete(_:)`) and batch deletes alike. Each conformer carries the actions out
/// on its own representation: registered objects, or committed rows.
protocol DeleteRuleActions {
    /// `nullify`: removes `source` from the inverse relationship, at `inverseSlot`, of each of
    /// `targets` (objects of the entity at `destinationIndex`).
    mutating func nullify(_ source: ObjectID, inverseSlot: Int, of targets: [ObjectID], destinationIndex: Int)
    /// `cascade`: deletes each of `targets` too (and what their own rules reach).
    mutating func cascade(
        from source: ObjectID, to targets: [ObjectID], through relationship: EntityInfo.ResolvedRelationship)
    /// `deny`: `source` cannot be deleted while any of `targets` survives.
    mutating func deny(_ source: ObjectID, through relationship: EntityInfo.ResolvedRelationship, targets: [ObjectID])
}

extension DeleteRuleActions {
    /// Applies the delete rule of `relationship` for the deleted object `source`, whose
    /// relationship holds `targets`: `nullify` (only with an inverse to empty), `cascade`,
    /// `deny`, or nothing for `noAction` and for an empty relationship.
    mutating func applyDeleteRule(
        of relationship: EntityInfo.ResolvedRelationship, deleting source: ObjectID, targets: [ObjectID]
    ) {
        guard !targets.isEmpty else { return }
        switch relationship.description.deleteRule {
        case .nullify:
            guard let inverseSlot = relationship.inverseSlot else { return }
            nullify(source, inverseSlot: inverseSlot, of: targets, destinationIndex: relationship.destinationIndex)
        case .cascade:
            cascade(from: source, to: targets, through: relationship)
        case .deny:
            deny(source, through: relationship, targets: targets)
        case .noAction:
            return
        }
    }
}
