/// Object keys sorted by one attribute's value (ties in key order), in chunks, so that a
/// copy-on-write change to one entry copies one chunk and the chunk list, not the index.
///
/// Entries are `(value, key)` pairs in ascending order; every pair is unique because keys are.
struct SortedKeyIndex<Value: Comparable & Sendable>: Sendable {
    struct Entry: Sendable {
        var value: Value
        var key: Int64

        @inline(__always)
        static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
            lhs.value < rhs.value || (lhs.value == rhs.value && lhs.key < rhs.key)
        }
    }

    /// The largest chunk; a fuller one splits in two.
    static var maxChunk: Int { 512 }

    private(set) var chunks: [[Entry]] = []
    private(set) var count = 0

    /// The chunk that holds, or would hold, `entry`: the first whose last entry is not before it.
    private func chunkIndex(for entry: Entry) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if Entry.precedes(chunks[middle][chunks[middle].count - 1], entry) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return Swift.min(low, chunks.count - 1)
    }

    /// The first position in `chunk` whose entry is not before `entry`.
    private static func position(of entry: Entry, in chunk: [Entry]) -> Int {
        var low = 0
        var high = chunk.count
        while low < high {
            let middle = (low + high) / 2
            if Entry.precedes(chunk[middle], entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    mutating func insert(_ value: Value, key: Int64) {
        let entry = Entry(value: value, key: key)
        count += 1
        guard !chunks.isEmpty else {
            chunks.append([entry])
            return
        }
        let index = chunkIndex(for: entry)
        let position = Self.position(of: entry, in: chunks[index])
        chunks[index].insert(entry, at: position)
        if chunks[index].count > Self.maxChunk {
            let upper = Array(chunks[index][(Self.maxChunk / 2)...])
            chunks[index].removeSubrange((Self.maxChunk / 2)...)
            chunks.insert(upper, at: index + 1)
        }
    }

    /// Removes the entry for `key` with `value`; nothing if there is none.
    mutating func remove(_ value: Value, key: Int64) {
        guard !chunks.isEmpty else { return }
        let entry = Entry(value: value, key: key)
        let index = chunkIndex(for: entry)
        let position = Self.position(of: entry, in: chunks[index])
        guard position < chunks[index].count, chunks[index][position].key == key,
            chunks[index][position].value == value
        else { return }
        count -= 1
        if chunks[index].count == 1 {
            chunks.remove(at: index)
        } else {
            chunks[index].remove(at: position)
        }
    }

    /// The position (chunk, offset) of the first entry whose value is not below `value`
    /// (`inclusive`) or above it (not `inclusive`).
    private func start(after value: Value, inclusive: Bool) -> (Int, Int) {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            let last = chunks[middle][chunks[middle].count - 1].value
            if inclusive ? last < value : last <= value { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return (chunks.count, 0) }
        let chunk = chunks[low]
        var first = 0
        var end = chunk.count
        while first < end {
            let middle = (first + end) / 2
            if inclusive ? chunk[middle].value < value : chunk[middle].value <= value {
                first = middle + 1
            } else {
                end = middle
            }
        }
        return (low, first)
    }

    /// Calls `body` with the entries from the first value at least `lower` (all with `nil`) in
    /// ascending order, until it returns false.
    func forEach(from lower: Value?, _ body: (Value, Int64) -> Bool) {
        var (chunk, offset) = lower.map { start(after: $0, inclusive: true) } ?? (0, 0)
        while chunk < chunks.count {
            let entries = chunks[chunk]
            while offset < entries.count {
                guard body(entries[offset].value, entries[offset].key) else { return }
                offset += 1
            }
            chunk += 1
            offset = 0
        }
    }

    /// Appends the keys of the entries with values in `lower...upper` (`nil`: unbounded) in
    /// ascending order; false, with `keys` unchanged, if more than `limit` keys would be in it.
    ///
    /// The range's end is found first (a comparison per chunk, a binary search in the last),
    /// so that `keys` grows once; then each chunk's entries are copied in a tight loop (no
    /// closure per entry).
    func appendKeys(from lower: Value?, through upper: Value?, into keys: inout [Int64], limit: Int) -> Bool {
        guard let upper else { return appendKeys(from: lower, until: { _ in false }, into: &keys, limit: limit) }
        return appendKeys(from: lower, until: { $0 > upper }, into: &keys, limit: limit)
    }

    /// Appends the keys of the entries from the first value at least `lower` (all with `nil`) up
    /// to the first for which `isPast` holds, which must hold for every value after it (an
    /// upper bound, or the end of the strings with a prefix); false, with `keys` unchanged, if
    /// more than `limit` keys would be in it. `isPast` is called once per chunk and for a
    /// binary search in the last one, not once per entry.
    func appendKeys(
        from lower: Value?, until isPast: (Value) -> Bool, into keys: inout [Int64], limit: Int
    ) -> Bool {
        let first = lower.map { start(after: $0, inclusive: true) } ?? (0, 0)
        var total = 0
        var (chunk, offset) = first
        while chunk < chunks.count {
            let (end, isLast) = self.end(ofChunk: chunk, from: offset, until: isPast)
            total += end - offset
            guard keys.count + total <= limit else { return false }
            if isLast { break }
            chunk += 1
            offset = 0
        }
        let needed = keys.count + total
        // Geometric growth across calls (an `IN` appends one range per value).
        if keys.capacity < needed { keys.reserveCapacity(Swift.max(needed, 2 * keys.capacity)) }
        (chunk, offset) = first
        var remaining = total
        while remaining > 0 {
            remaining -= chunks[chunk].withUnsafeBufferPointer { entries in
                let end = Swift.min(entries.count, offset + remaining)
                for position in offset..<end { keys.append(entries[position].key) }
                return end - offset
            }
            chunk += 1
            offset = 0
        }
        return true
    }

    /// Where the entries before the first past the range end in chunk `chunk`, from `offset`
    /// on, and whether the chunk holds that first entry past it (so that it is the range's last).
    private func end(ofChunk chunk: Int, from offset: Int, until isPast: (Value) -> Bool) -> (end: Int, isLast: Bool) {
        chunks[chunk].withUnsafeBufferPointer { entries in
            var end = entries.count
            guard end > 0, isPast(entries[end - 1].value) else { return (end, false) }
            var low = offset
            while low < end {
                let middle = (low + end) / 2
                if isPast(entries[middle].value) { end = middle } else { low = middle + 1 }
            }
            return (end, true)
        }
    }

    /// The number of entries with values in `lower...upper` (`nil`: unbounded), at most `limit`.
    func count(from lower: Value?, through upper: Value?, limit: Int) -> Int {
        var result = 0
        forEach(from: lower) { value, _ in
            if let upper, value > upper { return false }
            result += 1
            return result < limit
        }
        return result
    }
}
