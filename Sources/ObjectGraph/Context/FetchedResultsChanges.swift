/// How a ``FetchedResultsController``'s objects changed in one round: which indexes of the old
/// array were deleted, which of the new array were inserted, which objects moved, and which stayed
/// in place but changed.
///
/// The indexes follow the batch-update convention of table and collection views: `deleted` and
/// `updated` (and each move's `from`) are positions in the old array, `inserted` (and each move's
/// `to`) positions in the new one, as a table view's batch updates expect. An object moves when its position relative to the objects that
/// stayed changed (an edit of a sort key); objects that only shift because others came or went do
/// not move. A moved object may also have changed: show its new values at its new position.
/// An edit that makes an object match the predicate (or fall within the fetch limit) is an insert;
/// one that makes it stop matching is a delete.
///
/// For example:
/// ```swift
/// controller.onChange = { changes in
///     for index in changes.deleted { print("removed row", index) }
///     for index in changes.inserted { print("added row", index) }
/// }
/// ```
///
/// Core Data: the `controller(_:didChange:at:for:newIndexPath:)` calls of an
/// `NSFetchedResultsControllerDelegate` (`.delete`, `.insert`, `.move`, `.update`), as one value.
public struct FetchedResultsChanges: Sendable, Hashable, CustomStringConvertible {
    /// An object that changed position: from its index in the old array to its index in the new one.
    ///
    /// Core Data: `NSFetchedResultsChangeType.move` with `indexPath` and `newIndexPath`.
    public struct Move: Sendable, Hashable {
        /// The object's index in the old array.
        public var from: Int
        /// The object's index in the new array.
        public var to: Int

        /// A move from index `from` of the old array to index `to` of the new one.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// The indexes, in the old array, of objects no longer in the results; ascending.
    ///
    /// Core Data: `NSFetchedResultsChangeType.delete`.
    public var deleted: [Int]
    /// The indexes, in the new array, of objects new to the results; ascending.
    ///
    /// Core Data: `NSFetchedResultsChangeType.insert`.
    public var inserted: [Int]
    /// The objects that changed position relative to the others; ascending by `from`.
    ///
    /// Core Data: `NSFetchedResultsChangeType.move`.
    public var moved: [Move]
    /// The indexes, in the old array, of objects that stayed in place but whose values changed;
    /// ascending.
    ///
    /// Core Data: `NSFetchedResultsChangeType.update`.
    public var updated: [Int]
    /// The indexes, in the old sections, of sections no longer in the results (no object has
    /// their name any more); ascending. Always empty without a `sectionNameKeyPath` (its one
    /// section stays, empty or not).
    ///
    /// Core Data: `controller(_:didChange:atSectionIndex:for:)` with `.delete`.
    public var deletedSections: [Int] = []
    /// The indexes, in the new sections, of sections new to the results; ascending.
    ///
    /// Core Data: `controller(_:didChange:atSectionIndex:for:)` with `.insert`.
    public var insertedSections: [Int] = []

    /// A set of changes; the default is none.
    public init(
        deleted: [Int] = [], inserted: [Int] = [], moved: [Move] = [], updated: [Int] = [],
        deletedSections: [Int] = [], insertedSections: [Int] = []
    ) {
        self.deleted = deleted
        self.inserted = inserted
        self.moved = moved
        self.updated = updated
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deleted.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty && deletedSections.isEmpty
            && insertedSections.isEmpty
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let moves = moved.map { "\($0.from)→\($0.to)" }
        let sections =
            deletedSections.isEmpty && insertedSections.isEmpty
            ? "" : ", deleted sections: \(deletedSections), inserted sections: \(insertedSections)"
        return
            "FetchedResultsChanges(deleted: \(deleted), inserted: \(inserted), moved: \(moves), updated: \(updated)\(sections))"
    }
}

extension FetchedResultsChanges {
    /// The changes that turn `old` into `new`, where `isChanged(i)` tells whether the object at
    /// index `i` of `old` has new values.
    ///
    /// Objects kept in place are the largest set that is in the same relative order in both arrays,
    /// preferring unchanged objects (so that an edited object is the one that moves, not the ones
    /// around it); the other common objects move.
    ///
    /// - Complexity: O((*n* + *m*) log *m*) for arrays of *n* and *m* objects; O(*n* + *m*) when
    ///   nothing moved.
    static func between(old: [ManagedObject], new: [ManagedObject], isChanged: (Int) -> Bool) -> Self {
        var newIndexes: [ObjectIdentifier: Int] = [:]
        newIndexes.reserveCapacity(new.count)
        for (index, object) in new.enumerated() { newIndexes[ObjectIdentifier(object)] = index }

        var changes = FetchedResultsChanges()
        // The objects in both arrays, in old order: (old index, new index).
        var common: [(old: Int, new: Int)] = []
        common.reserveCapacity(min(old.count, new.count))
        var inOld = [Bool](repeating: false, count: new.count)
        for (index, object) in old.enumerated() {
            if let newIndex = newIndexes[ObjectIdentifier(object)] {
                common.append((index, newIndex))
                inOld[newIndex] = true
            } else {
                changes.deleted.append(index)
            }
        }
        for index in new.indices where !inOld[index] { changes.inserted.append(index) }

        var kept = [Bool](repeating: true, count: common.count)
        if !zip(common, common.dropFirst()).allSatisfy({ $0.new < $1.new }) {
            kept = keptInPlace(common, isChanged: isChanged, positions: new.count)
        }
        for (offset, pair) in common.enumerated() {
            if !kept[offset] {
                changes.moved.append(Move(from: pair.old, to: pair.new))
            } else if isChanged(pair.old) {
                changes.updated.append(pair.old)
            }
        }
        return changes
    }

    /// Which of `common` (in old order) stay in place: a heaviest increasing subsequence of new
    /// indexes, where an unchanged object weighs more than all changed ones together.
    private static func keptInPlace(
        _ common: [(old: Int, new: Int)], isChanged: (Int) -> Bool, positions: Int
    ) -> [Bool] {
        let heavy = common.count + 1
        // A Fenwick tree over new indexes holding, for a prefix, the best chain (weight, last offset).
        var tree = [(weight: Int, offset: Int)](repeating: (0, -1), count: positions + 1)
        var previous = [Int](repeating: -1, count: common.count)
        var best = (weight: 0, offset: -1)
        for (offset, pair) in common.enumerated() {
            var chain = (weight: 0, offset: -1)
            var position = pair.new  // the prefix of new indexes below pair.new
            while position > 0 {
                if tree[position].weight > chain.weight { chain = tree[position] }
                position -= position & -position
            }
            let weight = chain.weight + (isChanged(pair.old) ? 1 : heavy)
            previous[offset] = chain.offset
            if weight > best.weight { best = (weight, offset) }
            position = pair.new + 1
            while position <= positions {
                if weight > tree[position].weight { tree[position] = (weight, offset) }
                position += position & -position
            }
        }
        var kept = [Bool](repeating: false, count: common.count)
        var offset = best.offset
        while offset >= 0 {
            kept[offset] = true
            offset = previous[offset]
        }
        return kept
    }
}
