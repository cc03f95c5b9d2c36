/// A live, mutable view of one object's ordered to-many relationship, from
/// ``ManagedObject/mutableOrderedSetValue(forKey:)``.
///
/// It keeps no copy: reads see the relationship as it is now, and every change goes through
/// ``ManagedObject/setValue(_:forKey:)``'s path, so inverse relationships, undo, observation and
/// change tracking see it as they see any other change. An object appears at most once: adding
/// or inserting an object already related changes nothing, as in an `NSMutableOrderedSet`.
///
/// For example:
/// ```swift
/// let steps = try recipe.mutableOrderedSetValue(forKey: "steps")
/// try steps.append(mix)
/// try steps.insert(preheat, at: 0)
/// try steps.move(from: 1, to: 0)
/// ```
///
/// Like the object it belongs to, it is not `Sendable`.
///
/// Core Data: the `NSMutableOrderedSet` that `NSManagedObject.mutableOrderedSetValue(forKey:)`
/// returns.
public final class MutableOrderedRelationshipSet: Sequence {
    /// The object whose relationship this is.
    public let object: ManagedObject
    /// The relationship's name.
    public let key: String
    private let slot: Int

    init(object: ManagedObject, key: String, slot: Int) {
        self.object = object
        self.key = key
        self.slot = slot
    }

    /// The related objects now, in order.
    ///
    /// - Complexity: O(*n*) for *n* related objects.
    public var array: [ManagedObject] {
        object.observationAccess(slot)
        return object.relatedObjects(object.values[slot])
    }

    /// The number of related objects.
    public var count: Int { array.count }

    /// The position of `member`, or `nil` if it is not related.
    ///
    /// Core Data: `NSOrderedSet.index(of:)`.
    public func index(of member: ManagedObject) -> Int? {
        array.firstIndex { $0 === member }
    }

    /// Whether `member` is related.
    public func contains(_ member: ManagedObject) -> Bool { index(of: member) != nil }

    /// An iterator over the related objects.
    public func makeIterator() -> IndexingIterator<[ManagedObject]> { array.makeIterator() }

    /// Relates `member` at the end, unless it is related already.
    ///
    /// - Throws: `PersistenceError.Code.typeMismatch` for an object of another entity or another
    ///   context (or none), or when this object is in no context; nothing changes then.
    ///
    /// Core Data: `NSMutableOrderedSet.add(_:)` on the relationship's proxy.
    public func append(_ member: ManagedObject) throws {
        try insert(member, at: nil)
    }

    /// Relates `member` at `index` (0 through ``count``), unless it is related already.
    ///
    /// - Throws: `PersistenceError.Code.outOfRange` for an index outside 0 through ``count``;
    ///   otherwise as ``append(_:)``.
    ///
    /// Core Data: `NSMutableOrderedSet.insert(_:at:)` on the relationship's proxy.
    public func insert(_ member: ManagedObject, at index: Int) throws {
        try insert(member, at: .some(index))
    }

    private func insert(_ member: ManagedObject, at index: Int?) throws {
        var current = object.relatedObjects(object.values[slot])
        let position = index ?? current.count
        guard position >= 0 && position <= current.count else { throw outOfRange(position, count: current.count) }
        if current.contains(where: { $0 === member }) && object.context != nil { return }
        current.insert(member, at: position)
        try object.setRelationship(fromAny: current, at: slot)
    }

    /// Unrelates `member`; does nothing if it is not related.
    ///
    /// - Throws: `PersistenceError.Code.typeMismatch` when this object is in no context.
    ///
    /// Core Data: `NSMutableOrderedSet.remove(_:)` on the relationship's proxy.
    public func remove(_ member: ManagedObject) throws {
        var current = object.relatedObjects(object.values[slot])
        guard let index = current.firstIndex(where: { $0 === member }) else {
            if object.context == nil { try object.setRelationship(fromAny: current, at: slot) }
            return
        }
        current.remove(at: index)
        try object.setRelationship(fromAny: current, at: slot)
    }

    /// Unrelates the object at `index` and returns it.
    ///
    /// - Throws: `PersistenceError.Code.outOfRange` for an index outside 0 up to ``count``;
    ///   otherwise as ``remove(_:)``.
    ///
    /// Core Data: `NSMutableOrderedSet.removeObject(at:)` on the relationship's proxy.
    @discardableResult
    public func remove(at index: Int) throws -> ManagedObject {
        var current = object.relatedObjects(object.values[slot])
        guard current.indices.contains(index) else { throw outOfRange(index, count: current.count) }
        let member = current.remove(at: index)
        try object.setRelationship(fromAny: current, at: slot)
        return member
    }

    /// Moves the object at `source` to `destination` (both below ``count``), keeping the others'
    /// order.
    ///
    /// - Throws: `PersistenceError.Code.outOfRange` for an index outside 0 up to ``count``;
    ///   otherwise as ``remove(_:)``.
    ///
    /// Core Data: `NSMutableOrderedSet.moveObjects(at:to:)` on the relationship's proxy.
    public func move(from source: Int, to destination: Int) throws {
        var current = object.relatedObjects(object.values[slot])
        for index in [source, destination] where !current.indices.contains(index) {
            throw outOfRange(index, count: current.count)
        }
        current.insert(current.remove(at: source), at: destination)
        try object.setRelationship(fromAny: current, at: slot)
    }

    /// Unrelates every object.
    ///
    /// - Throws: as ``remove(_:)``.
    ///
    /// Core Data: `NSMutableOrderedSet.removeAllObjects()` on the relationship's proxy.
    public func removeAll() throws {
        try object.setRelationship(fromAny: [ManagedObject](), at: slot)
    }

    private func outOfRange(_ index: Int, count: Int) -> PersistenceError {
        PersistenceError.relationshipIndexOutOfRange(
            index, count: count, key: key, entity: object.info.name, objectID: object.objectID)
    }
}

// Not Sendable, as the object it edits.
@available(*, unavailable, message: "A relationship proxy belongs to its object's isolation domain.")
extension MutableOrderedRelationshipSet: @unchecked Sendable {}
