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
    /// The conjuncts every committed row among `keys` satisfies, as the index found them (an
    /// integer index's exact range): the scan of the candidates need not test them (the fetch
    /// still checks the whole predicate on the rows that pass).
    let impliedTests: [ValueMatcher]

    /// The plan for `predicate` on `table`, or `nil` to scan: no conjunct fits an index, or
    /// each that does selects more than half of the rows. When several conjuncts fit indexes,
    /// the candidates are the keys all of them select (intersected through a bit set).
    init?(_ predicate: CompiledPredicate, table: EntityTable, sort: CompiledSort?) {
        guard !table.indexes.isEmpty, table.count > 0 else { return nil }
        var lists: [(keys: [Int64], slot: Int, isSingleRange: Bool)] = []
        var implied: [ValueMatcher] = []
        let conjuncts = predicate.root.slotConjuncts
        for (slot, test) in conjuncts {
            guard let index = table.index(ofSlot: slot), let probe = test.indexProbe else { continue }
            guard let keys = index.candidates(for: probe, limit: table.count / 2) else { continue }
            let isSingleRange: Bool
            switch probe {
            case .prefix: isSingleRange = true
            case .ranges(let ranges): isSingleRange = ranges.count == 1
            }
            lists.append((keys, slot, isSingleRange))
            if Self.isExact(probe, of: test, on: index) { implied.append(test) }
        }
        lists += Self.compoundLists(conjuncts, table: table, besides: Set(lists.map(\.slot)))
        guard !lists.isEmpty else { return nil }
        var sortSlot: Int?
        if let sort, sort.keys.count == 1, sort.keys[0].ascending, sort.keys[0].comparison == .caseSensitive,
            case .slot(let slot) = sort.keys[0].getter
        {
            sortSlot = slot
        }
        // The list that gives the order: one in sort order if there is one, else the shortest.
        let driver =
            lists.firstIndex { $0.slot == sortSlot && $0.isSingleRange }
            ?? lists.indices.min { lists[$0].keys.count < lists[$1].keys.count }!
        var keys = lists[driver].keys
        for other in lists.indices where other != driver && !keys.isEmpty {
            keys = Self.keys(keys, in: lists[other].keys, below: table.nextKey)
        }
        let sortsByIndex = lists[driver].slot == sortSlot && lists[driver].isSingleRange
        if sortsByIndex {
            self.keys = keys
        } else {
            self.keys = lists[driver].isSingleRange ? keys.sorted() : keys
        }
        self.isInSortOrder = sortsByIndex
        self.impliedTests = implied
    }

    /// The candidates of each compound index that narrows by two or more attributes, or by a
    /// first attribute with no index of its own (`besides`: the slots already looked up); each
    /// with slot -1 (its keys are in no sort descriptor's order).
    static func compoundLists(
        _ conjuncts: [(slot: Int, test: ValueMatcher)], table: EntityTable, besides slots: Set<Int>
    ) -> [(keys: [Int64], slot: Int, isSingleRange: Bool)] {
        table.indexes.compactMap { index in
            guard case .compound(let compound) = index,
                let (keys, used) = compound.candidates(for: conjuncts, limit: table.count / 2),
                used > 1 || !slots.contains(compound.slots[0])
            else { return nil }
            return (keys, -1, true)
        }
    }

    /// Whether the rows `index` finds for `probe` are exactly those `test` matches: an integer
    /// range whose bounds are the test's own (`<` and `>` probe inclusive bounds, a superset).
    static func isExact(_ probe: IndexProbe, of test: ValueMatcher, on index: AttributeIndex) -> Bool {
        guard case .integer = index, case .ranges(let ranges) = probe, ranges.count == 1,
            case .integerRange(_, let lower, let upper, _) = test.rowStep(slot: index.slot, node: 0)
        else { return false }
        func integer(_ bound: IndexProbe.Bound?, unbounded: Int64) -> Int64? {
            guard let bound else { return unbounded }
            if case .number(.int(let value)) = bound { return value }
            return nil
        }
        return integer(ranges[0].lower, unbounded: .min) == lower && integer(ranges[0].upper, unbounded: .max) == upper
    }

    /// The keys of `keys` (in their order) that are also in `other`, all below `end`.
    static func keys(_ keys: [Int64], in other: [Int64], below end: Int64) -> [Int64] {
        let words = Int((end + 63) / 64)
        var bits = [UInt64](repeating: 0, count: Swift.max(1, words))
        for key in other where key >= 0 && key < end { bits[Int(key >> 6)] |= 1 << UInt64(key & 63) }
        return keys.filter { key in
            key >= 0 && key < end && bits[Int(key >> 6)] & (1 << UInt64(key & 63)) != 0
        }
    }
}
