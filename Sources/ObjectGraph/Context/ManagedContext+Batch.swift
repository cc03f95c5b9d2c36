import Foundation

extension ManagedContext {
    /// Deletes, in the store, every committed object of the request's entity that matches its
    /// predicate, without loading objects into this context.
    ///
    /// One commit through the same path as a save: delete rules apply (`cascade` deletes the
    /// dependants, `nullify` removes the deleted objects from inverse relationships and bumps
    /// those objects' versions, `deny` refuses the whole batch), the store persists it durably,
    /// all or nothing, and a ``SaveNotification`` is published on ``PersistentContainer/saves``.
    /// If anything fails, nothing changes.
    ///
    /// The request sees committed data only: this context's unsaved changes are neither included
    /// nor changed, and, as in Core Data, **this context is not updated in place**: merge the
    /// result's notification (``mergeChanges(from:)``) to bring it, or any other context, up to
    /// date. Contexts with ``automaticallyMergesChanges`` (this one included) merge it on their own.
    /// Objects are never materialized, so `willSave()`, `validateForDelete()` and the other hooks
    /// do not run.
    ///
    /// For example:
    /// ```swift
    /// let result = try context.execute(BatchDeleteRequest(Fruit.self))
    /// context.mergeChanges(from: result.notification)
    /// ```
    ///
    /// - Returns: The deleted objects of the entity, and the notification of every change.
    /// - Throws: `PersistenceError.Code.unknownEntity` for an entity the model lacks; the
    ///   predicate's errors as in ``fetch(_:)``; `.validation` listing every `deny` rule that
    ///   refuses (and every object that `nullify` would leave without a required relationship);
    ///   the store's error if it fails to save.
    /// - Complexity: O(*n*) for *n* objects of the entity, plus the deleted objects' relationships
    ///   and the store's write. Without a predicate, the entity is emptied in one step: no row
    ///   visited (relationships with inverses are followed from the related objects), the
    ///   deleted keys kept as runs of consecutive keys (the result's ``BatchDeleteResult/count``
    ///   needs no IDs; ``BatchDeleteResult/deletedObjectIDs`` makes them on first access), and the
    ///   binary store writes one small record. On a ``SQLiteStore``, the objects are selected in
    ///   SQL and only their rows and those their delete rules reach are read.
    ///
    /// Core Data: `NSManagedObjectContext.execute(_:)` of an `NSBatchDeleteRequest`.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchDeleteResult {
        guard let info = model.info(named: request.entityName) else {
            throw PersistenceError.unknownEntity(request.entityName)
        }
        let members = try batchMembers(of: info, predicate: request.predicate)
        let origin = batchOrigin("batch delete")
        let (ids, notification) = try coordinator.batchDelete(
            members, origin: origin,
            narrowing: request.predicate?.evaluatesInSwift == true ? nil : request.predicate?.expression)
        return BatchDeleteResult(deleted: ids, notification: notification ?? .empty(origin: origin))
    }

    /// Sets attributes, in the store, on every committed object of the request's entity that
    /// matches its predicate, without loading objects into this context.
    ///
    /// The values are checked before anything is written: each key must be an attribute of the
    /// entity, each value of its type (or convertible without loss), not `nil` for a required
    /// attribute, and within its validation rules; uniqueness constraints are checked at commit.
    /// Any violation refuses the whole batch. Then one commit through the same path as a save:
    /// the store persists it durably, all or nothing, each changed object's version goes up
    /// (optimistic locking: a context that saves an older copy meets its merge policy), and a
    /// ``SaveNotification`` is published on ``PersistentContainer/saves``.
    ///
    /// As in Core Data, **this context is not updated in place** and its unsaved changes are
    /// neither included nor changed: merge the result's notification (``mergeChanges(from:)``).
    /// Objects are never materialized, so `validateForSave()` and the other hooks do not run.
    ///
    /// For example:
    /// ```swift
    /// let request = BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 0])
    /// let result = try context.execute(request)
    /// context.mergeChanges(from: result.notification)
    /// ```
    ///
    /// - Returns: The objects that changed, and the notification of the change.
    /// - Throws: `PersistenceError.Code.unknownEntity` for an entity the model lacks;
    ///   `.unknownKey` for a property it lacks; `.invalidFetchRequest` for no properties or a
    ///   relationship; `.typeMismatch` for a value of the wrong type; `.validation` for `nil` in a
    ///   required attribute or a value outside its rules; `.conflict` for a broken uniqueness
    ///   constraint; the predicate's errors as in ``fetch(_:)``; the store's error if it fails.
    /// - Complexity: O(*n*) for *n* objects of the entity, plus the store's write.
    ///
    /// Core Data: `NSManagedObjectContext.execute(_:)` of an `NSBatchUpdateRequest`.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchUpdateResult {
        guard let info = model.info(named: request.entityName) else {
            throw PersistenceError.unknownEntity(request.entityName)
        }
        let values = try checkedBatchValues(request.propertiesToUpdate, of: info)
        let members = try batchMembers(of: info, predicate: request.predicate)
        let origin = batchOrigin("batch update")
        let (ids, notification) = try coordinator.batchUpdate(
            members, values: values, origin: origin,
            narrowing: request.predicate?.evaluatesInSwift == true ? nil : .init(request.predicate?.expression))
        return BatchUpdateResult(updatedObjectIDs: ids, notification: notification ?? .empty(origin: origin))
    }

    /// The entity and, with inheritance, its sub-entities (whose objects are the entity's too),
    /// each with the predicate compiled for it.
    private func batchMembers(of info: EntityInfo, predicate: FetchPredicate?) throws -> [(
        info: EntityInfo, predicate: CompiledPredicate?
    )] {
        let family = info.hasSubentities ? info.familyIndexes.map { model.infos[$0] } : [info]
        return try family.map { member in
            (member, try predicate.map { try CompiledPredicate($0, entity: member, model: model) })
        }
    }

    /// The origin of a batch commit: a new identifier, so that every context (this one too)
    /// merges its notification.
    private func batchOrigin(_ name: String) -> ContextIdentifier {
        ContextIdentifier(number: coordinator.broadcaster.nextContextNumber(), name: name)
    }

    /// The update's values by slot, converted to each attribute's type and checked.
    private func checkedBatchValues(_ properties: [String: StoreValue], of info: EntityInfo) throws -> [(
        slot: Int, value: StoreValue
    )] {
        guard !properties.isEmpty else {
            throw PersistenceError.invalidBatchRequest(
                "names no properties to update; set propertiesToUpdate", entity: info.name)
        }
        var result: [(slot: Int, value: StoreValue)] = []
        var failures: [PersistenceError] = []
        for name in properties.keys.sorted() {
            guard let slot = info.slotByName[name] else {
                throw PersistenceError.unknownKey(name, entity: info.name, objectID: nil)
            }
            guard info.isAttribute(slot) else {
                throw PersistenceError.invalidBatchRequest(
                    "sets the relationship '\(name)'; batch updates set attributes only. Change relationships "
                        + "on the objects, so that their inverses follow", entity: info.name, key: name)
            }
            let attribute = info.attribute(at: slot)
            let value = attribute.type.normalized(properties[name]!)
            guard value.isNull || attribute.type.accepts(value) else {
                throw PersistenceError.typeMismatch(
                    key: name, entity: info.name, objectID: nil,
                    expected: "\(attribute.type)\(attribute.isOptional ? " or nil" : "")", given: value.kindName)
            }
            failures += Self.batchRuleFailures(value, slot: slot, of: info)
            result.append((slot, value))
        }
        guard failures.isEmpty else { throw PersistenceError.validationFailed(failures) }
        return result
    }

    /// Optionality, minimum, maximum, length and pattern of one attribute's new value.
    private static func batchRuleFailures(_ value: StoreValue, slot: Int, of info: EntityInfo) -> [PersistenceError] {
        let attribute = info.attribute(at: slot)
        func failure(_ problem: String) -> PersistenceError {
            .batchValueInvalid(entity: info.name, key: attribute.name, problem: problem)
        }
        guard !value.isNull else {
            return attribute.isOptional ? [] : [failure("is nil, but the attribute is required")]
        }
        var failures: [PersistenceError] = []
        let rules = attribute.validation
        // As at save: a value with no order against the bound (NaN) breaks it too.
        if let minimum = rules.minimum,
            ![.orderedDescending, .orderedSame].contains(StoreValue.compare(value, minimum))
        {
            failures.append(failure("is below its minimum"))
        }
        if let maximum = rules.maximum, ![.orderedAscending, .orderedSame].contains(StoreValue.compare(value, maximum))
        {
            failures.append(failure("is above its maximum"))
        }
        if let length = rules.length {
            let count: Int? =
                switch value {
                case .string(let text): text.count
                case .data(let data): data.count
                default: nil
                }
            if let count, !length.contains(count) {
                failures.append(
                    failure("has length \(count), outside the allowed \(length.lowerBound)...\(length.upperBound)"))
            }
        }
        if let pattern = info.patterns[slot], case .string(let text) = value {
            let range = NSRange(text.startIndex..<text.endIndex, in: text)
            if pattern.firstMatch(in: text, options: [.anchored], range: range)?.range != range {
                failures.append(failure("does not match its pattern"))
            }
        }
        return failures
    }
}
