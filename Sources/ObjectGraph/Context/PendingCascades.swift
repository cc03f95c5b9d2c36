/// The cascades of a context's delete that run one inside another, one per link of a chain of
/// cascading relationships. Past ``maximumDepth`` a cascade waits on a list, and the outermost
/// cascade carries it out from a shallow stack: no chain, however long, exhausts the thread's
/// stack. Only the order of the deletes in a chain deeper than that changes.
struct PendingCascades {
    /// A cascade that waits for the outermost one.
    struct Cascade {
        let source: ObjectID
        let targets: [ObjectID]
        let relationship: EntityInfo.ResolvedRelationship
    }

    /// How many cascades may run one inside another before the next one waits.
    static let maximumDepth = 32

    /// How many cascades are running one inside another.
    var depth = 0
    /// The cascades waiting, in the order they were reached.
    var waiting: [Cascade] = []
}
