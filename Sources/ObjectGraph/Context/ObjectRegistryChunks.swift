/// One entity's registered objects by key (for `ObjectRegistry`): a table of chunks of
/// `slotsPerChunk` slots, in memory it allocates and frees itself.
///
/// A slot is an object's address (an unretained reference, `Unmanaged.toOpaque()`) or `nil`, a
/// plain word, so that this type names no object type: the table and its chunks are
/// copied, filled and freed without reference counting, and registering an object is a store
/// through two pointers. A chunk grows to the highest offset used (from 16 slots), so that a small
/// context stays small; a chunk first used at its offset 0, past the first chunk, is being filled
/// in key order by a large fetch and gets all its slots at once.
///
/// Noncopyable: it owns its memory.
struct ObjectRegistryChunks: ~Copyable {
    typealias Slot = UnsafeRawPointer?

    /// log2 of ``slotsPerChunk``.
    static let shift = 8  // also written out in `slot(chunk:offset:)`
    static let slotsPerChunk = 1 << shift
    /// The most chunks (2^24 keys): `ObjectRegistry` keeps larger keys in a dictionary, so that
    /// one huge key does not allocate a huge table.
    static let maxChunks = 1 << 16  // also written out in `slot(chunk:offset:)`

    private struct Chunk {
        var slots: UnsafeMutablePointer<Slot>?
        var capacity: Int
    }

    /// `count` chunks, each initialized (a chunk not used yet has no slots).
    private var table: UnsafeMutablePointer<Chunk>?
    private var count = 0

    init() {}

    deinit {
        for chunk in 0..<count { table![chunk].slots?.deallocate() }
        table?.deallocate()
    }

    /// The address in `offset` of `chunk`, or `nil` (also past the slots allocated so far).
    subscript(chunk: Int, offset: Int) -> Slot {
        // One unsigned comparison each also turns a negative position away.
        guard UInt(bitPattern: chunk) < UInt(count) else { return nil }
        let entry = table![chunk]
        return UInt(bitPattern: offset) < UInt(entry.capacity) ? entry.slots![offset] : nil
    }

    /// The slot at `offset` of `chunk`, allocated if it is not yet.
    mutating func slot(chunk: Int, offset: Int) -> UnsafeMutablePointer<Slot> {
        // The writes below go through unchecked pointers. The bounds are written out (maxChunks,
        // slotsPerChunk), so that the check reads no global's lazy accessor.
        precondition(
            UInt(bitPattern: chunk) < 1 << 16 && UInt(bitPattern: offset) < 1 << 8,
            "A registry slot is within the chunk table.")
        if chunk >= count { growTable(toHold: chunk) }
        let entry = table! + chunk
        if offset >= entry.pointee.capacity { grow(entry, toHold: offset, firstChunk: chunk == 0) }
        return entry.pointee.slots! + offset
    }

    /// Calls `body` with each object's address, in chunk and offset order.
    func forEach(_ body: (UnsafeRawPointer) -> Void) {
        for chunk in 0..<count {
            let entry = table![chunk]
            for offset in 0..<entry.capacity {
                if let object = entry.slots![offset] { body(object) }
            }
        }
    }

    private mutating func growTable(toHold chunk: Int) {
        let capacity = Swift.max(chunk + 1, Swift.min(count * 2, Self.maxChunks), 4)
        let grown = UnsafeMutablePointer<Chunk>.allocate(capacity: capacity)
        if let table {
            grown.moveInitialize(from: table, count: count)
            table.deallocate()
        }
        (grown + count).initialize(repeating: Chunk(slots: nil, capacity: 0), count: capacity - count)
        table = grown
        count = capacity
    }

    private func grow(_ entry: UnsafeMutablePointer<Chunk>, toHold offset: Int, firstChunk: Bool) {
        let old = entry.pointee
        let size = Self.slotsPerChunk
        let capacity =
            old.capacity > 0
            ? Swift.min(size, Swift.max(offset + 1, old.capacity * 2))
            : !firstChunk && offset == 0 ? size : Swift.min(size, Swift.max(16, offset + 1))
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        if let oldSlots = old.slots {
            slots.moveInitialize(from: oldSlots, count: old.capacity)
            oldSlots.deallocate()
        }
        (slots + old.capacity).initialize(repeating: nil, count: capacity - old.capacity)
        entry.pointee = Chunk(slots: slots, capacity: capacity)
    }
}
