extension ManagedObject {
    /// The objects a relationship value refers to, materialized in this object's context;
    /// objects that no longer exist (deleted elsewhere) are left out.
    @usableFromInline
    func relatedObjects(_ stored: StoreValue) -> [ManagedObject] {
        guard let context else { return [] }
        switch stored {
        case .object(let id): return context.existingOrNil(id).map { [$0] } ?? []
        case .objects(let ids):
            var objects: [ManagedObject] = []
            objects.reserveCapacity(ids.count)
            context.forEachExisting(ids) { objects.append($0) }
            return objects
        default: return []
        }
    }

    /// The IDs a relationship slot refers to.
    func relatedIDs(at slot: Int) -> [ObjectID] {
        switch values[slot] {
        case .object(let id): [id]
        case .objects(let ids): ids
        default: []
        }
    }

    /// Sets a relationship from an untyped value, checking the destination entity.
    func setRelationship(fromAny value: Any?, at slot: Int) throws {
        let resolved = info.relationship(at: slot)
        let relationship = resolved.description
        let targets: [ManagedObject]?
        // Core Data code passes NSSet, NSOrderedSet and NSArray.
        switch value.map(FoundationBridging.unbridgedFoundationValue) {
        case nil: targets = []
        case let object as ManagedObject where !relationship.isToMany: targets = [object]
        case let objects as [ManagedObject] where relationship.isToMany: targets = objects
        case let objects as Set<ManagedObject> where relationship.isToMany:
            targets = objects.sorted { $0.objectID < $1.objectID }
        case let objects as Set<AnyHashable> where relationship.isToMany:
            let typed = objects.compactMap { $0.base as? ManagedObject }
            targets = typed.count == objects.count ? typed.sorted { $0.objectID < $1.objectID } : nil
        default: targets = nil
        }
        guard let targets, targets.allSatisfy({ resolved.accepts(entityNamed: $0.info.name) }) else {
            throw PersistenceError.typeMismatch(
                key: relationship.name, entity: info.name, objectID: objectID,
                expected: relationship.isToMany
                    ? "a Set or Array of \(relationship.destination) objects" : "a \(relationship.destination) or nil",
                given: value.map { "\(type(of: $0))" } ?? "nil")
        }
        guard let context else {
            throw PersistenceError.relationshipOfDetachedObject(
                key: relationship.name, entity: info.name, objectID: objectID)
        }
        if let foreign = targets.first(where: { $0.context !== context }) {
            throw PersistenceError.foreignRelationshipTarget(
                foreign.objectID, isDetached: foreign.context == nil, key: relationship.name, entity: info.name,
                objectID: objectID)
        }
        replaceRelationship(at: slot, with: targets)
    }

    /// Replaces the destinations of a relationship and keeps the inverse relationship of every
    /// object that joins or leaves it consistent.
    @usableFromInline
    func replaceRelationship(at slot: Int, with targets: [ManagedObject]) {
        let relationship = info.relationship(at: slot)
        guard let context else {
            preconditionFailure(
                "Insert \(info.name) into a context before setting its relationship '\(relationship.description.name)'."
            )
        }
        if !relationship.description.isToMany && targets.count <= 1 {
            replaceToOne(at: slot, with: targets.first, relationship: relationship, in: context)
            return
        }
        var newIDs: [ObjectID] = []
        newIDs.reserveCapacity(targets.count)
        // Small relationships (the usual case) dedupe by scanning; large ones hash.
        var seen: Set<ObjectID>? = targets.count > 16 ? [] : nil
        for target in targets {
            precondition(
                target.context === context,
                "\(info.name).\(relationship.description.name) cannot relate objects of different contexts: "
                    + "insert \(target.objectID) into the same context first.")
            let isNew = seen != nil ? seen!.insert(target.objectID).inserted : !newIDs.contains(target.objectID)
            if isNew { newIDs.append(target.objectID) }
        }
        let oldIDs = relatedIDs(at: slot)
        if relationship.description.isToMany && !relationship.description.isOrdered {
            // Unordered relationships keep their IDs sorted, so equal sets store equal values.
            newIDs.sort { $0.key < $1.key }
        }
        let stored: StoreValue =
            relationship.description.isToMany ? .objects(newIDs) : newIDs.first.map { .object($0) } ?? .null
        setStoreValue(stored, at: slot)
        guard relationship.inverseSlot != nil else { return }
        let newSet = seen ?? (newIDs.count > 16 ? Set(newIDs) : nil)
        let oldSet = oldIDs.count > 16 ? Set(oldIDs) : nil
        for id in oldIDs where !(newSet?.contains(id) ?? newIDs.contains(id)) {
            context.existingOrNil(id)?.removeRelated(objectID, inverseOf: relationship)
        }
        for target in targets where !(oldSet?.contains(target.objectID) ?? oldIDs.contains(target.objectID)) {
            target.addRelated(self, inverseOf: relationship)
        }
    }

    /// Sets a to-one relationship and keeps the inverse relationships consistent.
    @usableFromInline
    func replaceToOneRelationship(at slot: Int, with target: ManagedObject?) {
        let relationship = info.relationship(at: slot)
        guard let context else {
            preconditionFailure(
                "Insert \(info.name) into a context before setting its relationship '\(relationship.description.name)'."
            )
        }
        replaceToOne(at: slot, with: target, relationship: relationship, in: context)
    }

    /// The to-one case of ``replaceRelationship(at:with:)``, without temporary arrays.
    private func replaceToOne(
        at slot: Int, with target: ManagedObject?, relationship: EntityInfo.ResolvedRelationship,
        in context: ManagedContext
    ) {
        if let target {
            precondition(
                target.context === context,
                "\(info.name).\(relationship.description.name) cannot relate objects of different contexts: "
                    + "insert \(target.objectID) into the same context first.")
        }
        let oldID: ObjectID? = if case .object(let id) = values[slot] { id } else { nil }
        let newID = target?.objectID
        guard oldID != newID else { return }
        setStoreValue(newID.map { .object($0) } ?? .null, at: slot)
        guard relationship.inverseSlot != nil else { return }
        if let oldID { context.existingOrNil(oldID)?.removeRelated(objectID, inverseOf: relationship) }
        target?.addRelated(self, inverseOf: relationship)
    }

    /// Adds `source` to this object's relationship in `slot` (the inverse side of a change);
    /// for a to-one relationship, detaches the object it pointed at before.
    private func addRelated(_ source: ManagedObject, at slot: Int) {
        let relationship = info.relationship(at: slot)
        if relationship.description.isToMany {
            let id = source.objectID
            editRelatedIDs(at: slot) { ids in
                if relationship.description.isOrdered {
                    guard !ids.contains(id) else { return false }
                    ids.append(id)
                    return true
                }
                // Unordered relationships keep their IDs sorted by key: binary search.
                let index = ids.partitioningIndex { $0.key >= id.key }
                guard index == ids.endIndex || ids[index] != id else { return false }
                ids.insert(id, at: index)
                return true
            }
            return
        }
        if case .object(let previous) = values[slot], previous != source.objectID, relationship.inverseSlot != nil {
            context?.existingOrNil(previous)?.removeRelated(objectID, inverseOf: relationship)
        }
        setStoreValue(.object(source.objectID), at: slot)
    }

    /// Adds `source` to this object's side of `relationship` (a relationship of `source`'s
    /// entity whose inverse this object has).
    private func addRelated(_ source: ManagedObject, inverseOf relationship: EntityInfo.ResolvedRelationship) {
        guard let slot = relationship.inverseSlot(in: info) else { return }
        addRelated(source, at: slot)
    }

    /// Removes `id` from this object's side of `relationship` (a relationship of `id`'s entity
    /// whose inverse this object has).
    func removeRelated(_ id: ObjectID, inverseOf relationship: EntityInfo.ResolvedRelationship) {
        guard let slot = relationship.inverseSlot(in: info) else { return }
        removeRelated(id, at: slot)
    }

    /// Removes `id` from this object's relationship in `slot`.
    func removeRelated(_ id: ObjectID, at slot: Int) {
        switch values[slot] {
        case .object(let current) where current == id:
            setStoreValue(.null, at: slot)
        case .objects(let ids):
            guard let index = ids.firstIndex(of: id) else { return }
            editRelatedIDs(at: slot) { ids in
                ids.remove(at: index)
                return true
            }
        default:
            break
        }
    }
}
