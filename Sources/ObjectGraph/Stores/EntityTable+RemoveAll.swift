extension EntityTable {
    /// Removes every row in one step, keeping `nextKey` so that keys are never reused: what a
    /// delete of every object of the entity does to the committed table.
    ///
    /// The table's attribute indexes stay, emptied, so that later rows are indexed. The commit
    /// plan's uniqueness indexes live outside the table: `CommitPlan.emptyEntity(_:)` empties
    /// them with it.
    ///
    /// - Complexity: O(1) (the old chunks are released).
    mutating func removeAll() {
        let emptiedIndexes = indexes.map(\.emptied)
        self = EntityTable(nextKey: nextKey)
        indexes = emptiedIndexes
    }

    /// An empty table whose next key is `nextKey`.
    init(nextKey: Int64) {
        self.init()
        self.nextKey = nextKey
    }
}

extension EntityTable {
    /// Calls `body` with each key, in key order, without reading the rows of a full chunk.
    ///
    /// - Complexity: O(*n*) for *n* keys; a chunk with every row present costs one comparison
    ///   and no access to its rows (the common case: a table filled by inserts).
    func forEachKey(_ body: (Int64) throws -> Void) rethrows {
        for chunkIndex in chunks.indices where liveCounts[chunkIndex] > 0 {
            let base = Int64(chunkIndex << Self.chunkShift) + 1
            let rows = chunks[chunkIndex]
            if liveCounts[chunkIndex] == rows.count {
                for key in base..<(base + Int64(rows.count)) { try body(key) }
            } else {
                for offset in rows.indices where rows[offset] != nil { try body(base + Int64(offset)) }
            }
        }
    }
}

extension AttributeIndex {
    /// An index of the same attribute with no keys.
    var emptied: AttributeIndex {
        switch self {
        case .integer(let slot, _): .integer(slot: slot, SortedKeyIndex())
        case .real(let slot, _): .real(slot: slot, SortedKeyIndex())
        case .string(let slot, _): .string(slot: slot, SortedKeyIndex())
        }
    }
}
