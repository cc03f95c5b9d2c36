/// What a ``FetchedResultsController`` keeps to update its results from the changed objects
/// alone: where each result sorts, its section name, the sections as runs, and which objects had
/// unsaved changes, beside an inbox that receives every save of the container.
struct FetchedResultsTracking {
    let plan: FetchedResultsPlan
    /// Receives every save of the container (the context's own included), so that a round
    /// knows which committed objects changed; registered under `inboxNumber`.
    let inbox = SaveInbox()
    let inboxNumber: Int
    /// Each result's sort values as of the last round, in the results' order.
    var sortValues: [[StoreValue]] = []
    /// The same by object key: where a changed object was.
    var sortValuesByKey: [Int64: [StoreValue]] = [:]
    /// Each result's section name as of the last round; empty without a section key path.
    var sectionNames: [String] = []
    /// The sections as runs of `sectionNames`; `nil` without a section key path.
    var runs: FetchedResultsSectionRuns?
    /// The keys of the entity's objects that had unsaved changes at the last round.
    var pendingKeys: Set<Int64> = []
    /// Whether objects of `plan.dependencies` had unsaved changes at the last round.
    var pendingTouchesDependencies = false
    /// Whether the last round's fetch failed, so that the next one must fetch whole.
    var isStale = false
    /// The context's reset count at the last round (a reset makes every result a new instance).
    var resets = 0

    init(plan: FetchedResultsPlan, inboxNumber: Int) {
        self.plan = plan
        self.inboxNumber = inboxNumber
    }

    /// Whether the result with `values` and `key` sorts before the one with `otherValues` and
    /// `otherKey`: by the sort descriptors, then by key, as a fetch orders ties.
    func sortsBefore(_ values: [StoreValue], _ key: Int64, _ otherValues: [StoreValue], _ otherKey: Int64) -> Bool {
        if let sort = plan.sort {
            let order = sort.compare(values, otherValues)
            if order != 0 { return order < 0 }
        }
        return key < otherKey
    }

    /// The position among `keys` (the results' object keys, in order) of the first result that
    /// does not sort before `values` and `key`.
    func insertionPoint(of values: [StoreValue], key: Int64, keys: (Int) -> Int64) -> Int {
        var low = 0
        var high = sortValues.count
        while low < high {
            let middle = (low + high) / 2
            if sortsBefore(sortValues[middle], keys(middle), values, key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The objects of the context's pending inserts, changes and deletes: the keys of those of
    /// the plan's entity, and whether any is of a dependency.
    func pendingChanges(in context: ManagedContext) -> (keys: Set<Int64>, touchesDependencies: Bool) {
        var keys: Set<Int64> = []
        var touchesDependencies = false
        func note(_ object: ManagedObject) {
            if object.info.index == plan.info.index {
                keys.insert(object.objectKey)
            } else if !touchesDependencies, !plan.dependencies.isEmpty {
                touchesDependencies = plan.dependencies.contains(
                    FetchedResultsPlan.root(of: object.info, model: context.model))
            }
        }
        for object in context.inserted { note(object) }
        for object in context.touched { note(object) }
        for object in context.deleted { note(object) }
        return (keys, touchesDependencies)
    }
}
