import Synchronization

/// One entity's committed records, addressed by key, in key (insertion) order.
///
/// Rows live in fixed-size chunks so that a copy-on-write change to one row copies one chunk,
/// not the table: a save costs in proportion to its change even while a fetch or a store holds
/// the previous state.
struct EntityTable: Sendable {
    struct Row: Sendable {
        var version: Int64
        var values: [StoreValue]
    }

    /// The largest key a table holds: 2^32 objects per entity over a store's life. Bounding keys
    /// keeps a damaged store file from making the table allocate without limit.
    static let maxKey: Int64 = 1 << 32

    static let chunkShift = 9
    static let chunkSize = 1 << chunkShift

    /// The rows, chunk by chunk: chunk `c` holds keys `c << chunkShift + 1 ... (c + 1) << chunkShift`;
    /// `nil` where a chunk has no row.
    private(set) var chunks: [RowChunk?] = []
    private(set) var count = 0
    /// The key the next inserted object gets; keys are never reused.
    var nextKey: Int64 = 1
    /// The indexes of the entity's indexed attributes, kept current by `set(_:forKey:)`.
    var indexes: [AttributeIndex] = []
    /// The string prefix columns scans have built on this table, kept current by
    /// `set(_:forKey:)`.
    private(set) var prefixColumns = StringPrefixColumn.Cache()
    /// The string signature columns scans have built on this table, kept current by
    /// `set(_:forKey:)`.
    private(set) var signatureColumns = StringSignatureColumn.Cache()

    subscript(key: Int64) -> Row? {
        guard key >= 1 else { return nil }
        let index = Int(key - 1)
        let chunk = index >> Self.chunkShift
        guard chunk < chunks.count else { return nil }
        return chunks[chunk]?[index & (Self.chunkSize - 1)]
    }

    /// Whether the table holds a row for `key` (without copying the row).
    func contains(_ key: Int64) -> Bool {
        guard key >= 1 else { return false }
        let index = Int(key - 1)
        let chunk = index >> Self.chunkShift
        guard chunk < chunks.count else { return false }
        let offset = index & (Self.chunkSize - 1)
        return chunks[chunk]?.withRows { offset < $0.count && $0.contains(offset) } ?? false
    }

    /// Stores or removes the row for `key` (which must be at least 1).
    mutating func set(_ row: Row?, forKey key: Int64) {
        precondition(key >= 1 && key <= Self.maxKey, "Object keys are between 1 and \(Self.maxKey).")
        // A cache another table value shares describes that table's rows, not the changed ones.
        if !isKnownUniquelyReferenced(&prefixColumns) { prefixColumns = prefixColumns.detached() }
        defer { prefixColumns.update(key: key, to: row?.values) }
        if !isKnownUniquelyReferenced(&signatureColumns) { signatureColumns = signatureColumns.detached() }
        defer { signatureColumns.update(key: key, to: row?.values) }
        let index = Int(key - 1)
        let chunk = index >> Self.chunkShift
        let offset = index & (Self.chunkSize - 1)
        if chunk >= chunks.count {
            guard row != nil else { return }
            chunks.append(contentsOf: repeatElement(nil, count: chunk - chunks.count + 1))
        }
        if chunks[chunk] == nil {
            guard let row else { return }
            // Start small tables with room to grow, rather than doubling from one row. Keys are
            // handed out in order, so a chunk past the first is started by a table that filled
            // the one before it: it gets its whole size at once (growing it by doubling copied
            // its rows nine times over).
            let fresh = RowChunk(
                capacity: chunk == 0 ? Swift.min(Self.chunkSize, Swift.max(16, offset + 1)) : Self.chunkSize)
            if !indexes.isEmpty { updateIndexes(key: key, from: nil, to: row.values) }
            fresh.replace(row, at: offset)
            chunks[chunk] = fresh
            count += 1
            if key >= nextKey { nextKey = key + 1 }
            return
        }
        // A chunk another table value shares (a snapshot a fetch or a store holds) is copied
        // before it changes; one without room for `offset` grows (doubling, up to a chunk).
        let shared = !isKnownUniquelyReferenced(&chunks[chunk])
        let current = chunks[chunk].unsafelyUnwrapped
        if offset >= current.end && row == nil { return }
        let capacity =
            offset < current.capacity
            ? current.capacity : Swift.min(Self.chunkSize, Swift.max(offset + 1, 2 * current.capacity))
        if shared {
            chunks[chunk] = current.copy(capacity: capacity)
        } else if capacity > current.capacity {
            chunks[chunk] = current.moved(capacity: capacity)
        }
        let target = chunks[chunk].unsafelyUnwrapped
        if !indexes.isEmpty {
            updateIndexes(key: key, from: target[offset]?.values, to: row?.values)
        }
        let existed = target.replace(row, at: offset)
        switch (existed, row != nil) {
        case (false, true): count += 1
        case (true, false):
            count -= 1
            if target.live == 0 { chunks[chunk] = nil }
        default: break
        }
        if key >= nextKey { nextKey = key + 1 }
    }

    /// Stores `row` for `key` as ``set(_:forKey:)`` does, cheaper for a loader reading rows in key
    /// order: a key past every key the table holds, within the room of its last chunk, on a table
    /// no scan has built a string column on, is appended without the checks a change in place
    /// needs (a shared chunk, a shared or built column cache). Any other key is stored by `set`.
    mutating func append(_ row: Row, forKey key: Int64) {
        guard key >= 1, key <= Self.maxKey else { return set(row, forKey: key) }
        let index = Int(key - 1)
        let chunk = index >> Self.chunkShift
        let offset = index & (Self.chunkSize - 1)
        guard chunk == chunks.count - 1,
            isKnownUniquelyReferenced(&prefixColumns), prefixColumns.isEmpty,
            isKnownUniquelyReferenced(&signatureColumns), signatureColumns.isEmpty,
            isKnownUniquelyReferenced(&chunks[chunk]), let last = chunks[chunk],
            offset >= last.end, offset < last.capacity
        else { return set(row, forKey: key) }
        if !indexes.isEmpty { updateIndexes(key: key, from: nil, to: row.values) }
        last.replace(row, at: offset)
        count += 1
        if key >= nextKey { nextKey = key + 1 }
    }

    /// Calls `body` with each key and row, in key order.
    func forEach(_ body: (Int64, Row) throws -> Void) rethrows {
        try forEachWhile { key, row in
            try body(key, row)
            return true
        }
    }

    /// Calls `body` with each key and row for which `include` holds (given the values, read in
    /// place, so that rows it rejects are not copied), in key order, until `body` returns false.
    ///
    /// Rows are not touched ahead (as ``touch(_:)`` does for keys in an index's order): in key
    /// order the processor's own prefetching follows rows allocated side by side, and
    /// touching, which retains and releases each row's values, made the issue 4 scan slower
    /// (2.6–3.2 ms vs 1.8–2.2 ms). A table whose rows were reallocated all over the heap (many
    /// updates) may miss it.
    ///
    /// The rows `exclusions` reject are skipped before they are read: they must be rows
    /// `include` rejects too. `include` also gets the row's mask of the conjuncts the exclusions
    /// settled as holding (``PrefixExclusion/marksHoldingRows``; 0 without such exclusions).
    func forEachWhile(
        excluding exclusions: [PrefixExclusion] = [],
        including include: (Int64, UnsafeBufferPointer<StoreValue>, _ holding: UInt64) -> Bool,
        _ body: (Int64, Row) -> Bool
    ) {
        guard exclusions.isEmpty else {
            return forEachSurvivorWhile(of: exclusions, including: include, body)
        }
        for chunkIndex in chunks.indices {
            guard let chunk = chunks[chunkIndex] else { continue }
            let base = Int64(chunkIndex << Self.chunkShift) + 1
            let finished = chunk.withRows { rows in
                for offset in 0..<rows.count {
                    let key = base + Int64(offset)
                    guard rows.test(offset, { include(key, $0, 0) }) else { continue }
                    if !body(key, rows[offset].unsafelyUnwrapped) { return true }
                }
                return false
            }
            if finished { return }
        }
    }

    /// As above, with exclusions: each chunk's offsets that no exclusion rejects are listed
    /// first (a pass over the columns alone), then their rows read.
    private func forEachSurvivorWhile(
        of exclusions: [PrefixExclusion],
        including include: (Int64, UnsafeBufferPointer<StoreValue>, _ holding: UInt64) -> Bool,
        _ body: (Int64, Row) -> Bool
    ) {
        let marks = exclusions.contains(where: \.marksHoldingRows)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.chunkSize) { offsets in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: marks ? Self.chunkSize : 0) { holding in
                for chunkIndex in chunks.indices {
                    guard let chunk = chunks[chunkIndex] else { continue }
                    let base = Int64(chunkIndex << Self.chunkShift) + 1
                    let finished = chunk.withRows { rows in
                        for offset in 0..<rows.count { offsets[offset] = offset }
                        if marks { holding.baseAddress?.initialize(repeating: 0, count: rows.count) }
                        let count = PrefixExclusion.filter(
                            offsets, count: rows.count, chunk: chunkIndex, by: exclusions,
                            holding: marks ? holding : nil)
                        for position in 0..<count {
                            let offset = offsets[position]
                            let key = base + Int64(offset)
                            let mask = marks ? holding[offset] : 0
                            guard rows.test(offset, { include(key, $0, mask) }) else { continue }
                            if !body(key, rows[offset].unsafelyUnwrapped) { return true }
                        }
                        return false
                    }
                    if finished { return }
                }
            }
        }
    }

    /// The rows a scan touches ahead of reading them.
    static let touchBlock = 32

    /// Where ``touch(_:)`` would store an impossible sum, so that its loads are not optimized
    /// away.
    private static let touchSink = Atomic<Int>(0)

    /// Loads a byte of each cache line of the first values (up to 256 bytes) and returns their sum.
    @inline(__always)
    private static func touch(_ bytes: UnsafeRawBufferPointer) -> Int {
        var sum = 0
        var position = 0
        let end = Swift.min(bytes.count, 256)
        while position < end {
            sum &+= Int(bytes[position])
            position += 64
        }
        return sum
    }

    /// Loads the start of the values of each row in `keys` before they are read, so that the
    /// cache misses of rows read in an index's order overlap instead of coming one after
    /// another (a software prefetch).
    func touch(_ keys: ArraySlice<Int64>) {
        var sink = 0
        for key in keys {
            guard key >= 1 else { continue }
            let index = Int(key - 1)
            let chunk = index >> Self.chunkShift
            guard chunk < chunks.count, let rowChunk = chunks[chunk] else { continue }
            let offset = index & (Self.chunkSize - 1)
            sink &+= rowChunk.withRows { rows in
                guard offset < rows.count else { return 0 }
                // In place: copying the row would retain its values, the atomic write that
                // serializes the very misses the touch is meant to overlap.
                return rows.values(at: offset).map { Self.touch(.init($0)) } ?? 0
            }
        }
        if sink == Int.min { Self.touchSink.store(sink, ordering: .relaxed) }
    }

    /// Calls `body` with each key and row, in key order, until it returns false.
    func forEachWhile(_ body: (Int64, Row) throws -> Bool) rethrows {
        for (chunkIndex, chunk) in chunks.enumerated() {
            guard let chunk else { continue }
            let base = Int64(chunkIndex << Self.chunkShift) + 1
            let finished = try chunk.withRows { rows in
                for offset in 0..<rows.count {
                    if let row = rows[offset], try !body(base + Int64(offset), row) { return true }
                }
                return false
            }
            if finished { return }
        }
    }
}
