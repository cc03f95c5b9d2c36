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
    public let deletedObjectIDs: Set<ObjectID>
    /// The context that saved.
    public let origin: ManagedContext.Identifier
    /// The position of the save among the container's saves, from 1.
    public let sequenceNumber: Int

    /// Whether the save changed nothing of the given entity.
    public func touches(entityNamed name: String) -> Bool {
        [insertedObjectIDs, updatedObjectIDs, deletedObjectIDs].contains { ids in
            ids.contains { $0.entityName == name }
        }
    }
}

extension ManagedContext {
    /// Tells contexts apart in save notifications: unique among one container's contexts.
    public struct Identifier: Sendable, Hashable, CustomStringConvertible {
        let number: Int
        /// The context's name when it was created, for debugging.
        public let name: String?

        public var description: String { name.map { "\($0) (#\(number))" } ?? "context #\(number)" }

        public static func == (lhs: Identifier, rhs: Identifier) -> Bool { lhs.number == rhs.number }
        public func hash(into hasher: inout Hasher) { hasher.combine(number) }
    }
}
