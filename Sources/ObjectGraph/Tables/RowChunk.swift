/// The rows of one chunk of an ``EntityTable``, in storage the table allocates and frees itself.
///
/// A chunk is a reference: table values that copy each other share their chunks, and a table
/// changes a chunk in place only while no other table holds it (``EntityTable/set(_:forKey:)``
/// copies a shared chunk first). Rows `0 ..< end` are initialized, each a row or `nil` (a hole);
/// the rest of the capacity is not, and nothing reads it.
///
/// Scans read a row's values in place (``Rows/values(at:)``): copying a row out of its chunk
/// retains its values array, an atomic write that on x86 waits for the array's cache line and
/// keeps the next rows' loads from starting early.
final class RowChunk: @unchecked Sendable {
    // @unchecked Sendable: no lock; a chunk is changed only by the one table value that holds
    // the only reference to it (`isKnownUniquelyReferenced`), and shared chunks are read-only.

    /// The storage: `capacity` rows, of which `0 ..< end` are initialized.
    private let rows: UnsafeMutablePointer<EntityTable.Row?>
    /// The rows the storage has room for.
    let capacity: Int
    /// The rows initialized: offsets `0 ..< end`.
    private(set) var end = 0
    /// How many of them are rows (not holes).
    private(set) var live = 0

    /// An empty chunk with room for `capacity` rows.
    init(capacity: Int) {
        self.capacity = capacity
        rows = .allocate(capacity: capacity)
    }

    deinit {
        rows.deinitialize(count: end)
        rows.deallocate()
    }

    /// A chunk of its own with the same rows and room for `capacity` (at least `end`) rows.
    func copy(capacity: Int) -> RowChunk {
        let copy = RowChunk(capacity: capacity)
        copy.rows.initialize(from: rows, count: end)
        copy.end = end
        copy.live = live
        return copy
    }

    /// The rows moved into a new chunk with room for `capacity` rows; this chunk is left empty.
    /// Only for a chunk no other table holds.
    func moved(capacity: Int) -> RowChunk {
        let moved = RowChunk(capacity: capacity)
        moved.rows.moveInitialize(from: rows, count: end)
        (moved.end, moved.live) = (end, live)
        (end, live) = (0, 0)
        return moved
    }

    /// Stores `row` at `offset` (below the capacity), filling any offsets between the end and
    /// it with holes. Only for a chunk no other table holds.
    ///
    /// - Returns: Whether a row was at `offset` before.
    @discardableResult
    func replace(_ row: EntityTable.Row?, at offset: Int) -> Bool {
        if offset >= end {
            // A programmer error, not reachable by input: the callers, `EntityTable.set` and
            // `EntityTable.append`, grow a chunk to hold `offset` (or check that it fits) before
            // storing into it, and refuse keys outside 1...maxKey first (stores check the keys
            // they read and report `corruptStore`).
            precondition(offset < capacity, "A row is stored within its chunk's capacity.")
            (rows + end).initialize(repeating: nil, count: offset - end)
            (rows + offset).initialize(to: row)
            end = offset + 1
            if row != nil { live += 1 }
            return false
        }
        let existed = rows[offset] != nil
        rows[offset] = row
        live += (row != nil ? 1 : 0) - (existed ? 1 : 0)
        return existed
    }

    /// The row at `offset`, or `nil` if there is none.
    subscript(offset: Int) -> EntityTable.Row? {
        offset < end ? rows[offset] : nil
    }

    /// Calls `body` with the chunk's initialized rows, valid during the call.
    @inline(__always)
    func withRows<Result>(_ body: (Rows) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(Rows(base: UnsafePointer(rows), count: end)) }
    }

    /// A chunk's initialized rows, read without copying them.
    struct Rows {
        let base: UnsafePointer<EntityTable.Row?>
        /// The number of rows initialized (the chunk's `end`).
        let count: Int

        /// Whether a row is at `offset` (below `count`).
        @inline(__always)
        func contains(_ offset: Int) -> Bool {
            switch base[offset] {
            case .some: true
            case .none: false
            }
        }

        /// The row at `offset` (below `count`), or `nil` if there is none.
        @inline(__always)
        subscript(offset: Int) -> EntityTable.Row? { base[offset] }

        /// The values of the row at `offset` (below `count`), or `nil` if there is none, read in
        /// place: valid while the chunk holds the row unchanged, that is while the caller holds
        /// the table (a table never changes a chunk another table shares, nor a row's values in
        /// place).
        ///
        /// The closure only hands out the array's buffer, so no call can run while it is
        /// borrowed and the compiler reads the array without retaining it; the buffer is its
        /// own storage (an array of a value type is always native) and stays where it is while
        /// the array is not changed.
        @inline(__always)
        func values(at offset: Int) -> UnsafeBufferPointer<StoreValue>? {
            base[offset]?.values.withUnsafeBufferPointer { $0 }
        }

        /// Whether a row is at `offset` (below `count`) and `include` holds for its values.
        @inline(__always)
        func test(_ offset: Int, _ include: (UnsafeBufferPointer<StoreValue>) -> Bool) -> Bool {
            guard let values = values(at: offset) else { return false }
            return include(values)
        }
    }
}
