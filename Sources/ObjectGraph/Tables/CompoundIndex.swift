/// The index of a compound ``FetchIndexDescription``: the keys of an entity's committed rows
/// sorted by their values in several attributes, column by column.
///
/// Every row is in it, with `null` components for nil (or NaN) values, so that a lookup by a
/// prefix of the columns finds rows whose later columns are nil.
struct CompoundIndex: Sendable {
    let slots: [Int]
    let columns: [CompoundIndexKey.Column]
    private(set) var sorted = SortedKeyIndex<CompoundIndexKey>()

    /// An empty index of the attributes at `slots` of `types`; `nil` if one is not indexable.
    init?(slots: [Int], types: [AttributeType]) {
        var columns: [CompoundIndexKey.Column] = []
        for type in types {
            guard let column = CompoundIndexKey.Column(type) else { return nil }
            columns.append(column)
        }
        self.slots = slots
        self.columns = columns
    }

    /// The index's key of a row with `values`.
    func key(_ values: [StoreValue]) -> CompoundIndexKey {
        CompoundIndexKey(components: zip(slots, columns).map { slot, column in column.component(values[slot]) })
    }

    /// Replaces the entry of `key` for the row `old` (nil: none) with one for `new` (nil: none).
    mutating func update(key: Int64, from old: [StoreValue]?, to new: [StoreValue]?) {
        if let old, let new, slots.allSatisfy({ old[$0] == new[$0] }) { return }
        if let old { sorted.remove(self.key(old), key: key) }
        if let new { sorted.insert(self.key(new), key: key) }
    }

    /// The same index with no keys.
    var emptied: CompoundIndex {
        var index = self
        index.sorted = SortedKeyIndex()
        return index
    }
}
