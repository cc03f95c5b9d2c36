import Foundation

extension ManagedObject {
    // MARK: - Slots

    /// The slot of `key`, or a typed error naming the entity and key.
    func slot(forKey key: String) throws -> Int {
        guard let slot = info.slotByName[key] else {
            throw PersistenceError.unknownKey(key, entity: info.name, objectID: objectID)
        }
        return slot
    }

    /// Sets one attribute's stored value, recording the change with the context.
    @usableFromInline
    func setStoreValue(_ value: StoreValue, at slot: Int) {
        guard values[slot] != value else { return }
        if let context {
            if context.journal != nil { context.recordBeforeChange(self) }
            if let undo = context.undoManager { undo.recordChange(of: self, at: slot, from: values[slot], to: value) }
        }
        if observationRegistrar != nil { observationWillSet(slot) }
        if sharesCommittedValues { values = values.map { $0 } }
        values[slot] = value
        if observationRegistrar != nil { observationDidSet(slot) }
        context?.didChange(self)
    }

    /// Whether `values` is the buffer of `committed` (as after a fetch or a save), so that the
    /// first change must copy it: `map` copies with `StoreValue`'s own copy, where the array's
    /// copy-on-write copies through the runtime's generic value witnesses.
    private var sharesCommittedValues: Bool {
        guard let committed else { return false }
        return values.withUnsafeBufferPointer { $0.baseAddress } == committed.withUnsafeBufferPointer { $0.baseAddress }
    }

    /// Edits a to-many relationship's IDs in place, without copying the array, recording the
    /// change with the context as ``setStoreValue(_:at:)`` does. `edit` returns whether it
    /// changed anything.
    func editRelatedIDs(at slot: Int, _ edit: (inout [ObjectID]) -> Bool) {
        guard case .objects(var ids) = values[slot] else { return }
        if let context, context.journal != nil { context.recordBeforeChange(self) }
        let undo = context?.undoManager
        let old = undo != nil ? values[slot] : .null
        if observationRegistrar != nil { observationWillSet(slot) }
        values[slot] = .null  // drops the array's second reference, so the edit needs no copy
        let changed = edit(&ids)
        values[slot] = .objects(ids)
        if observationRegistrar != nil { observationDidSet(slot) }
        if changed {
            undo?.recordChange(of: self, at: slot, from: old, to: values[slot])
            context?.didChange(self)
        }
    }

    // MARK: - Untyped access

    /// The current value of an attribute or relationship.
    ///
    /// Attributes come back as their Swift types (`String`, `Bool`, `Int16`/`Int32`/`Int64` by
    /// attribute type, `Float`, `Double`, `Decimal`, `Date`, `Data` (also for `codable`), `UUID`,
    /// `URL`) or `nil`; a to-one relationship as a `ManagedObject?`, a to-many one as a
    /// `Set<ManagedObject>`, or an `[ManagedObject]` when ordered.
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` if the entity has no such property.
    /// - Complexity: O(1) for attributes; O(*n*) for a to-many relationship of *n* objects.
    ///
    /// Core Data: `NSManagedObject.value(forKey:)`.
    public func value(forKey key: String) throws -> Any? {
        let slot = try slot(forKey: key)
        observationAccess(slot)
        return anyValue(values[slot], at: slot)
    }

    /// Sets the value of an attribute or relationship.
    ///
    /// Accepts the Swift types that ``value(forKey:)`` returns, any integer or floating-point type
    /// for numeric attributes (checked for range), any ``AttributeValue``, any `Encodable` value for
    /// a `codable` attribute, and objects of the destination entity for relationships.
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key the entity lacks;
    ///   `PersistenceError.Code.typeMismatch` for a value the property cannot hold, including an
    ///   object (or an array or set with an object) of another context or of none, and any
    ///   relationship of an object that is in no context. A failed call changes nothing.
    ///
    /// Core Data: `NSManagedObject.setValue(_:forKey:)`.
    public func setValue(_ value: Any?, forKey key: String) throws {
        let slot = try slot(forKey: key)
        if info.isAttribute(slot) {
            let attribute = info.attribute(at: slot)
            guard let stored = StoreValue(converting: value, to: attribute) else {
                throw PersistenceError.typeMismatch(
                    key: key, entity: info.name, objectID: objectID,
                    expected: "\(attribute.type)\(attribute.isOptional ? " or nil" : "")",
                    given: value.map { "\(type(of: $0))" } ?? "nil")
            }
            setStoreValue(stored, at: slot)
        } else {
            try setRelationship(fromAny: value, at: slot)
        }
    }

    /// The keys and new values of every property that changed since the object was last saved
    /// or read; for an inserted object, every property that has a value.
    ///
    /// Core Data: `NSManagedObject.changedValues()`.
    public func changedValues() -> [String: Any?] {
        var changes: [String: Any?] = [:]
        for slot in values.indices {
            let changed: Bool
            if let committed {
                changed = committed[slot] != values[slot]
            } else {
                changed = values[slot] != .null && values[slot] != .objects([])
            }
            if changed { changes[info.propertyName(at: slot)] = anyValue(values[slot], at: slot) }
        }
        return changes
    }

    /// The last saved or read values of the given keys (every key when `keys` is `nil`); empty
    /// for an object that was never saved. Unknown keys are left out.
    ///
    /// Core Data: `NSManagedObject.committedValues(forKeys:)`.
    public func committedValues(forKeys keys: [String]?) -> [String: Any?] {
        guard let committed else { return [:] }
        var result: [String: Any?] = [:]
        let slots = keys.map { $0.compactMap { info.slotByName[$0] } } ?? Array(values.indices)
        for slot in slots { result[info.propertyName(at: slot)] = anyValue(committed[slot], at: slot) }
        return result
    }

    /// The untyped Swift value of a stored value in `slot`.
    func anyValue(_ stored: StoreValue, at slot: Int) -> Any? {
        if !info.isAttribute(slot) {
            let relationship = info.relationship(at: slot).description
            let objects = relatedObjects(stored)
            if !relationship.isToMany { return objects.first }
            return relationship.isOrdered ? objects : Set(objects)
        }
        switch stored {
        case .null: return nil
        case .int(let number):
            switch info.attribute(at: slot).type {
            case .integer16: return Int16(truncatingIfNeeded: number)
            case .integer32: return Int32(truncatingIfNeeded: number)
            default: return number
            }
        case .bool(let value): return value
        case .float(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .decimal(let value): return value
        case .date(let value): return value
        case .data(let value): return value
        case .uuid(let value): return value
        case .url(let value): return value
        case .object(let id): return id
        case .objects(let ids): return ids
        }
    }
}
