/// A set of objects by identity that iterates in insertion order (a context's touched objects).
///
/// `Set<ManagedObject>` hashes every member with SipHash (`Hasher`) and iterates in hash order,
/// so a save that writes 10,000 changed objects paid a hash per first change, another set for
/// the changed ones, and a full sort of them by key. Here members sit in an array in the order
/// they joined (objects changed in key order stay sorted, which the save's stable sort then
/// only checks), and a table of positions, found by the object's address with a multiplicative
/// hash and linear probing, answers `contains` and `remove` in O(1).
///
/// A removed member leaves a hole in the array (skipped by iteration) until holes outnumber
/// members, when the array is compacted.
struct ObjectIdentitySet<Element: AnyObject>: Sequence {
    /// The members in insertion order; `nil` where one was removed.
    private var members: [Element?] = []
    /// Positions in `members` plus one, by hash (0: empty). Its count is 0 or a power of two at
    /// least twice the number of occupied positions.
    private var positions: [Int32] = []
    /// How many members the set holds (`members` minus its holes).
    private(set) var count = 0

    init() {}

    /// Whether the set has no member.
    var isEmpty: Bool { count == 0 }

    /// Whether `object` is a member.
    func contains(_ object: Element) -> Bool {
        guard !positions.isEmpty else { return false }
        return find(object).position != nil
    }

    /// Adds `object` unless it is a member; returns whether it was added.
    @discardableResult
    mutating func insert(_ object: Element) -> Bool {
        if (members.count + 1) * 2 > positions.count {
            // Grow, or compact first when removals left many holes.
            rebuild(capacity: Swift.max(16, (count + 1) * 4))
        }
        let (slot, position) = find(object)
        guard position == nil else { return false }
        members.append(object)
        positions[slot] = Int32(members.count)
        count += 1
        return true
    }

    /// Removes `object` if it is a member; returns whether it was.
    @discardableResult
    mutating func remove(_ object: Element) -> Bool {
        guard !positions.isEmpty else { return false }
        let (slot, found) = find(object)
        guard let position = found else { return false }
        members[position] = nil
        count -= 1
        deletePosition(at: slot)
        if count == 0 {
            removeAll()
        } else if members.count > 2 * count + 16 {
            rebuild(capacity: positions.count)
        }
        return true
    }

    /// Removes every member.
    mutating func removeAll() {
        members = []
        positions = []
        count = 0
    }

    func makeIterator() -> Iterator {
        Iterator(members: members)
    }

    /// Iterates the members in insertion order.
    struct Iterator: IteratorProtocol {
        fileprivate let members: [Element?]
        fileprivate var position = 0

        fileprivate init(members: [Element?]) { self.members = members }

        mutating func next() -> Element? {
            while position < members.count {
                defer { position += 1 }
                if let member = members[position] { return member }
            }
            return nil
        }
    }

    var underestimatedCount: Int { count }

    // MARK: - Table

    /// The table slot `object` is in (its position in `members`), or the empty slot where it
    /// would go (and `nil`).
    private func find(_ object: Element) -> (slot: Int, position: Int?) {
        let mask = positions.count - 1
        var slot = Self.hash(object) & mask
        while true {
            let stored = Int(positions[slot])
            if stored == 0 { return (slot, nil) }
            if members[stored - 1] === object { return (slot, stored - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// Empties `slot`, moving later entries of its probe run back so that every entry stays
    /// reachable from its hash (deletion without tombstones, for linear probing).
    private mutating func deletePosition(at slot: Int) {
        let mask = positions.count - 1
        var hole = slot
        var next = (slot + 1) & mask
        while positions[next] != 0 {
            let home = Self.hash(members[Int(positions[next]) - 1].unsafelyUnwrapped) & mask
            // The entry at `next` moves into the hole unless its home lies cyclically in
            // (hole, next]: then it is reachable without passing the hole.
            let homeAfterHole = (home - hole) & mask
            if homeAfterHole == 0 || homeAfterHole > (next - hole) & mask {
                positions[hole] = positions[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        positions[hole] = 0
    }

    /// Drops the holes of `members` and rebuilds the table with `capacity` slots (rounded up
    /// to a power of two).
    private mutating func rebuild(capacity: Int) {
        if members.count != count { members.removeAll { $0 == nil } }
        var size = 16
        while size < capacity || size < 2 * (members.count + 1) { size *= 2 }
        positions = Array(repeating: 0, count: size)
        let mask = size - 1
        for (index, member) in members.enumerated() {
            var slot = Self.hash(member.unsafelyUnwrapped) & mask
            while positions[slot] != 0 { slot = (slot + 1) & mask }
            positions[slot] = Int32(index + 1)
        }
    }

    /// The object's address, mixed (Fibonacci hashing): objects are at least 16-byte aligned,
    /// and consecutive allocations differ in the middle bits.
    private static func hash(_ object: Element) -> Int {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}
