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
    /// Calls `body` with each run of consecutive keys, in key order (runs that touch are
    /// joined), without reading the rows of a full chunk.
    ///
    /// - Complexity: O(*c*) for *c* chunks when every chunk is full, O(*n*) for *n* keys at most.
    func forEachKeyRun(_ body: (Range<Int64>) throws -> Void) rethrows {
        var run: Range<Int64>? = nil
        func add(_ keys: Range<Int64>) throws {
            if let current = run, current.upperBound == keys.lowerBound {
                run = current.lowerBound..<keys.upperBound
            } else {
                if let current = run { try body(current) }
                run = keys
            }
        }
        for chunkIndex in chunks.indices {
            guard let chunk = chunks[chunkIndex] else { continue }
            let base = Int64(chunkIndex << Self.chunkShift) + 1
            if chunk.live == chunk.end {
                try add(base..<(base + Int64(chunk.end)))
            } else {
                let offsets = chunk.withRows { rows in (0..<rows.count).filter(rows.contains) }
                for offset in offsets {
                    let key = base + Int64(offset)
                    try add(key..<(key + 1))
                }
            }
        }
        if let run { try body(run) }
    }
}
