/// One save's worth of changes, handed to ``PersistentStore/save(_:)``.
///
/// A store persists either the delta (``inserted``, ``updated``, ``deleted``) or the whole
/// resulting state (``snapshot``), whichever suits its medium; all of it or none of it.
public struct StoreChangeSet: Sendable {
    /// Objects new in this save.
    public var inserted: [StoreRecord]
    /// Objects changed in this save, with their new versions and values.
    public var updated: [StoreRecord]
    /// Objects removed in this save.
    ///
    /// - Complexity: O(1), except after a delete of every object of an entity: the IDs of its
    ///   objects are made on first access, O(*n*) for *n* objects.
    public var deleted: [ObjectID] {
        get {
            guard let emptied else { return individuallyDeleted }
            return individuallyDeleted.isEmpty ? emptied.objectIDs : emptied.objectIDs + individuallyDeleted
        }
        set {
            individuallyDeleted = newValue
            emptied = nil
        }
    }
    /// Entities every object of which this save removed, before its inserts and updates (a
    /// delete of everything, such as a ``BatchDeleteRequest`` without a predicate). Their
    /// objects are listed in ``deleted`` too; a store that persists deltas may record one
    /// "every object of this entity is gone" operation for each instead of one per object.
    public var emptiedEntityNames: Set<String>
    /// The complete committed state after this save.
    public var snapshot: StoreSnapshot

    /// Creates a change set.
    public init(
        inserted: [StoreRecord], updated: [StoreRecord], deleted: [ObjectID], emptiedEntityNames: Set<String> = [],
        snapshot: StoreSnapshot
    ) {
        self.inserted = inserted
        self.individuallyDeleted = deleted
        self.updated = updated
        self.emptiedEntityNames = emptiedEntityNames
        self.snapshot = snapshot
    }

    /// Whether the change set changes nothing.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deletedCount == 0 && emptiedEntityNames.isEmpty
    }

    /// Objects removed one by one; the objects of emptied entities are in `emptied`.
    var individuallyDeleted: [ObjectID]
    /// The entities this save emptied in one step, with their objects' keys (listed in
    /// ``deleted`` only when someone reads it).
    var emptied: EmptiedEntities?

    /// The committed state this save replaces, when the coordinator made the change set: a store
    /// shared with other processes checks each updated row against its version here.
    var previous: StoreSnapshot?

    /// The number of objects in ``deleted``, without making their IDs.
    var deletedCount: Int { individuallyDeleted.count + (emptied?.count ?? 0) }

    /// A change set whose emptied entities' objects are kept as key runs.
    init(
        inserted: [StoreRecord], updated: [StoreRecord], individuallyDeleted: [ObjectID], emptied: EmptiedEntities?,
        snapshot: StoreSnapshot
    ) {
        self.init(
            inserted: inserted, updated: updated, deleted: individuallyDeleted,
            emptiedEntityNames: emptied?.entityNames ?? [], snapshot: snapshot)
        self.emptied = emptied
    }
}
