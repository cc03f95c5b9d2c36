/// A live, mutable view of one object's unordered to-many relationship, from
/// ``ManagedObject/mutableSetValue(forKey:)``.
///
/// It keeps no copy: reads see the relationship as it is now, and every change goes through
/// ``ManagedObject/setValue(_:forKey:)``'s path, so inverse relationships, undo, observation and
/// change tracking see it as they see any other change. Adding an object already related, or
/// removing one that is not, changes nothing.
///
/// For example:
/// ```swift
/// let fruits = try basket.mutableSetValue(forKey: "fruits")
/// try fruits.add(apple)        // apple.basket is now basket
/// try fruits.remove(pear)
/// ```
///
/// Like the object it belongs to, it is not `Sendable`.
///
/// Core Data: the `NSMutableSet` that `NSManagedObject.mutableSetValue(forKey:)` returns.
public final class MutableRelationshipSet: Sequence {
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

    /// The related objects now.
    ///
    /// - Complexity: O(*n*) for *n* related objects.
    public var objects: Set<ManagedObject> {
        object.observationAccess(slot)
        return Set(object.relatedObjects(object.values[slot]))
    }

    /// The number of related objects.
    public var count: Int { objects.count }

    /// Whether `member` is related.
    public func contains(_ member: ManagedObject) -> Bool {
        object.observationAccess(slot)
        return member.context === object.context && object.relatedIDs(at: slot).contains(member.objectID)
    }

    /// An iterator over the related objects.
    public func makeIterator() -> Set<ManagedObject>.Iterator { objects.makeIterator() }

    /// Relates `member`, and sets its inverse relationship.
    ///
    /// - Throws: `PersistenceError.Code.typeMismatch` for an object of another entity or another
    ///   context (or none), or when this object is in no context; nothing changes then.
    ///
    /// Core Data: `NSMutableSet.add(_:)` on the relationship's proxy.
    public func add(_ member: ManagedObject) throws {
        try add(contentsOf: [member])
    }

    /// Relates every object of `members` not related yet.
    ///
    /// - Throws: as ``add(_:)``; nothing changes if any member is refused.
    ///
    /// Core Data: `NSMutableSet.union(_:)` on the relationship's proxy.
    public func add(contentsOf members: some Sequence<ManagedObject>) throws {
        var current = object.relatedObjects(object.values[slot])
        let known = Set(current.map(ObjectIdentifier.init))
        let added = members.filter { !known.contains(ObjectIdentifier($0)) }
        if added.isEmpty && object.context != nil { return }
        current.append(contentsOf: added)
        try object.setRelationship(fromAny: current, at: slot)
    }

    /// Unrelates `member` (and clears or shrinks its inverse); does nothing if it is not related.
    ///
    /// - Throws: `PersistenceError.Code.typeMismatch` when this object is in no context.
    ///
    /// Core Data: `NSMutableSet.remove(_:)` on the relationship's proxy.
    public func remove(_ member: ManagedObject) throws {
        try remove(contentsOf: [member])
    }

    /// Unrelates every object of `members`.
    ///
    /// - Throws: as ``remove(_:)``.
    ///
    /// Core Data: `NSMutableSet.minus(_:)` on the relationship's proxy.
    public func remove(contentsOf members: some Sequence<ManagedObject>) throws {
        let removed = Set(members.map(ObjectIdentifier.init))
        let current = object.relatedObjects(object.values[slot])
        let kept = current.filter { !removed.contains(ObjectIdentifier($0)) }
        if kept.count == current.count && object.context != nil { return }
        try object.setRelationship(fromAny: kept, at: slot)
    }

    /// Unrelates every object.
    ///
    /// - Throws: as ``remove(_:)``.
    ///
    /// Core Data: `NSMutableSet.removeAllObjects()` on the relationship's proxy.
    public func removeAll() throws {
        try object.setRelationship(fromAny: [ManagedObject](), at: slot)
    }
}

// Not Sendable, as the object it edits.
@available(*, unavailable, message: "A relationship proxy belongs to its object's isolation domain.")
extension MutableRelationshipSet: @unchecked Sendable {}
