/// What one successful save changed: the IDs of the objects it inserted, updated and deleted.
///
/// Every save (and `deleteAll`) of any context of a container publishes one on the container's
/// ``PersistentContainer/saves`` stream, in commit order. Hand it to another context's
/// ``ManagedContext/mergeChanges(from:)`` to bring that context up to date.
///
/// Core Data: `NSManagedObjectContextDidSave` and its user-info keys.
public struct SaveNotification: Sendable, Hashable {
    /// Objects the save inserted.
    public let insertedObjectIDs: Set<ObjectID>
    /// Objects the save changed.
    public let updatedObjectIDs: Set<ObjectID>
    /// Objects the save deleted.
    ///
    /// - Complexity: O(1), except after a delete of every object of an entity (a
    ///   ``BatchDeleteRequest`` without a predicate): its set is built on first access, O(*n*)
    ///   for *n* deleted objects.
    public var deletedObjectIDs: Set<ObjectID> {
        guard let emptied else { return individuallyDeletedObjectIDs }
        return emptied.objectIDs(adding: individuallyDeletedObjectIDs)
    }
    /// The context that saved.
    public let origin: ContextIdentifier
    /// The position of the save among the container's saves, from 1.
    public let sequenceNumber: Int

    /// Deleted objects one by one; the objects of emptied entities are in `emptied`.
    let individuallyDeletedObjectIDs: Set<ObjectID>
    /// The entities the save emptied in one step, with their objects' IDs.
    let emptied: EmptiedEntities?

    init(
        insertedObjectIDs: Set<ObjectID>, updatedObjectIDs: Set<ObjectID>, deletedObjectIDs: Set<ObjectID>,
        emptied: EmptiedEntities? = nil, origin: ContextIdentifier, sequenceNumber: Int
    ) {
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.individuallyDeletedObjectIDs = deletedObjectIDs
        self.emptied = emptied.flatMap { $0.count == 0 ? nil : $0 }
        self.origin = origin
        self.sequenceNumber = sequenceNumber
    }

    /// Whether the save changed nothing of the given entity.
    public func touches(entityNamed name: String) -> Bool {
        if let emptied, emptied.entityNames.contains(name) { return true }
        return [insertedObjectIDs, updatedObjectIDs, individuallyDeletedObjectIDs].contains { ids in
            ids.contains { $0.entityName == name }
        }
    }

    /// Whether the two are equal.
    public static func == (lhs: SaveNotification, rhs: SaveNotification) -> Bool {
        lhs.origin == rhs.origin && lhs.sequenceNumber == rhs.sequenceNumber
            && lhs.insertedObjectIDs == rhs.insertedObjectIDs && lhs.updatedObjectIDs == rhs.updatedObjectIDs
            && lhs.deletedObjectIDs == rhs.deletedObjectIDs
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(origin)
        hasher.combine(sequenceNumber)
        hasher.combine(insertedObjectIDs)
        hasher.combine(updatedObjectIDs)
    }
}
