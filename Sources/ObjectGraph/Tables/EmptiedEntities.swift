/// The objects of the entities one save emptied in one step (a delete of every object of an
/// entity), held as runs of consecutive keys: a table filled by inserts is one run per entity,
/// so a notification of 100,000 deletions costs a few ranges, not an array of 100,000 IDs
/// (whose allocation, on glibc, also consolidates the allocator's free lists) nor a hashed set.
/// The array and the set are built on first use, once.
final class EmptiedEntities: Sendable {
    /// Consecutive keys of one entity's objects.
    struct KeyRun: Sendable, Equatable {
        let entityName: String
        let keys: Range<Int64>
    }

    /// The names of the emptied entities.
    let entityNames: Set<String>
    /// The keys of every object they held, entity by entity, each in key order.
    let runs: [KeyRun]
    /// The number of objects they held.
    let count: Int
    /// `objectIDs`, built on first use.
    private let cachedArray = Locked<[ObjectID]?>(nil)
    /// The set of `objectIDs`, built on first use.
    private let cachedSet = Locked<Set<ObjectID>?>(nil)

    init(entityNames: Set<String>, runs: [KeyRun]) {
        self.entityNames = entityNames
        self.runs = runs
        self.count = runs.reduce(0) { $0 + $1.keys.count }
    }

    /// The IDs of every object the entities held, entity by entity, each in key order.
    ///
    /// - Complexity: O(*n*) on first use, then O(1).
    var objectIDs: [ObjectID] {
        cachedArray.withLock { cached in
            if let cached { return cached }
            var ids: [ObjectID] = []
            ids.reserveCapacity(count)
            for run in runs {
                for key in run.keys { ids.append(ObjectID(entityName: run.entityName, key: key)) }
            }
            cached = ids
            return ids
        }
    }

    /// The IDs as a set, with `others` added.
    func objectIDs(adding others: Set<ObjectID>) -> Set<ObjectID> {
        let all = cachedSet.withLock { cached in
            if let cached { return cached }
            var set = Set<ObjectID>(minimumCapacity: count)
            for run in runs {
                for key in run.keys { set.insert(ObjectID(entityName: run.entityName, key: key)) }
            }
            cached = set
            return set
        }
        return others.isEmpty ? all : all.union(others)
    }
}
