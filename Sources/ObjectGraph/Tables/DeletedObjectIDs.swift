import Synchronization

/// The objects a delete removed: listed one by one, or the objects of emptied entities (kept as
/// key runs until someone reads them as IDs).
enum DeletedObjectIDs: Sendable {
    case listed([ObjectID])
    case emptied(EmptiedEntities)

    /// The number of objects.
    var count: Int {
        switch self {
        case .listed(let ids): ids.count
        case .emptied(let emptied): emptied.count
        }
    }

    /// The IDs, in the order of the delete.
    ///
    /// - Complexity: O(1) for listed IDs; O(*n*) the first time for emptied entities.
    var objectIDs: [ObjectID] {
        switch self {
        case .listed(let ids): ids
        case .emptied(let emptied): emptied.objectIDs
        }
    }
}
