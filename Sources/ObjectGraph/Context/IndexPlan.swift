/// How a fetch uses an attribute index: the committed rows to consider instead of the whole
/// table.
///
/// A plan exists when the predicate is a comparison, or an `AND` with a conjunct, that an index
/// of the entity can look up (see ``IndexProbe``). The candidates are a superset of the matching
/// committed rows; the fetch still checks the whole predicate on each, and adds the context's
/// pending changes as it does without an index, so results are the same with and without one.
struct IndexPlan {
    /// The candidate keys: in index order when `isInSortOrder`, else ascending.
    let keys: [Int64]
    /// Whether `keys` are in the order of the request's sort descriptors (one ascending sort on
    /// the indexed attribute, ties in key order, as a stable sort leaves them).
    let isInSortOrder: Bool

    /// The plan for `predicate` on `table`, or `nil` to scan: no conjunct fits an index, or the
    /// best one selects more than half of the rows.
    init?(_ predicate: CompiledPredicate, table: EntityTable, sort: CompiledSort?) {
        guard !table.indexes.isEmpty, table.count > 0 else { return nil }
        var best: (keys: [Int64], slot: Int, isSingleRange: Bool)?
        for (slot, test) in predicate.root.slotConjuncts {
            guard let index = table.index(ofSlot: slot), let probe = test.indexProbe else { continue }
            let limit = best.map { $0.keys.count - 1 } ?? table.count / 2
            guard limit >= 0, let keys = index.candidates(for: probe, limit: limit) else { continue }
            let isSingleRange: Bool
            switch probe {
            case .prefix: isSingleRange = true
            case .ranges(let ranges): isSingleRange = ranges.count == 1
            }
            best = (keys, slot, isSingleRange)
        }
        guard let best else { return nil }
        var sortsByIndex = false
        if let sort, sort.keys.count == 1, best.isSingleRange, sort.keys[0].ascending,
            sort.keys[0].comparison == .caseSensitive, case .slot(let slot) = sort.keys[0].getter, slot == best.slot
        {
            sortsByIndex = true
        }
        if sortsByIndex {
            self.keys = best.keys
        } else {
            self.keys = best.isSingleRange ? best.keys.sorted() : best.keys
        }
        self.isInSortOrder = sortsByIndex
    }
}
