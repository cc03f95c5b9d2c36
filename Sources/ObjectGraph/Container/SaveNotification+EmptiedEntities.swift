import Synchronization

/// The objects of the entities one save emptied in one step (a delete of every object of an
/// entity): their IDs in key order, made into a set only if someone asks for
/// ``SaveNotification/deletedObjectIDs``, so that a notification of 100,000 deletions costs one
/// array, not one hashed set.
final class EmptiedEntities: Sendable {
    /// The names of the emptied entities.
    let entityNames: Set<String>
    /// The IDs of every object they held, entity by entity, each in key order.
    let objectIDs: [ObjectID]
    /// The set of `objectIDs`, built on first use.
    private let cachedSet = Mutex<Set<ObjectID>?>(nil)

    init(entityNames: Set<String>, objectIDs: [ObjectID]) {
        self.entityNames = entityNames
        self.objectIDs = objectIDs
    }

    /// The IDs as a set, with `others` added.
    func objectIDs(adding others: Set<ObjectID>) -> Set<ObjectID> {
        let all = cachedSet.withLock { cached in
            if let cached { return cached }
            let set = Set(objectIDs)
            cached = set
            return set
        }
        return others.isEmpty ? all : all.union(others)
    }
}
