import Foundation

/// The in-memory index of one attribute marked `isIndexed`: the keys of an entity's committed
/// rows sorted by the attribute's value.
///
/// Integers are indexed as `Int64`; floats, doubles and dates (as seconds since the reference
/// date) as `Double`; strings in Swift `String` order. Rows whose value is nil or NaN are not
/// in the index: no comparison an index answers matches them. Other types are not indexed and
/// their predicates scan.
enum AttributeIndex: Sendable {
    case integer(slot: Int, SortedKeyIndex<Int64>)
    case real(slot: Int, SortedKeyIndex<Double>)
    case string(slot: Int, SortedKeyIndex<String>)

    /// An empty index for the attribute at `slot`, or `nil` if its type is not indexable.
    init?(slot: Int, type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer(slot: slot, SortedKeyIndex())
        case .float, .double, .date: self = .real(slot: slot, SortedKeyIndex())
        case .string: self = .string(slot: slot, SortedKeyIndex())
        default: return nil
        }
    }

    var slot: Int {
        switch self {
        case .integer(let slot, _), .real(let slot, _), .string(let slot, _): slot
        }
    }

    /// The number of indexed rows.
    var count: Int {
        switch self {
        case .integer(_, let index): index.count
        case .real(_, let index): index.count
        case .string(_, let index): index.count
        }
    }

    static func real(_ value: StoreValue) -> Double? {
        let number: Double
        switch value {
        case .double(let value): number = value
        case .float(let value): number = Double(value)
        case .date(let date): number = date.timeIntervalSinceReferenceDate
        default: return nil
        }
        return number.isNaN ? nil : number
    }

    /// Replaces the entry of `key` for `old` (nil: none) with one for `new` (nil: none).
    mutating func update(key: Int64, from old: StoreValue?, to new: StoreValue?) {
        switch self {
        case .integer(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            if case .int(let value) = old { index.remove(value, key: key) }
            if case .int(let value) = new { index.insert(value, key: key) }
            self = .integer(slot: slot, index)
        case .real(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            if let value = old.flatMap(Self.real) { index.remove(value, key: key) }
            if let value = new.flatMap(Self.real) { index.insert(value, key: key) }
            self = .real(slot: slot, index)
        case .string(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            if case .string(let value) = old { index.remove(value, key: key) }
            if case .string(let value) = new { index.insert(value, key: key) }
            self = .string(slot: slot, index)
        }
    }
}

extension EntityTable {
    /// An empty table with an index for each indexable attribute of `info` marked `isIndexed`.
    init(indexing info: EntityInfo) {
        self.init()
        indexes = Self.indexes(for: info)
    }

    static func indexes(for info: EntityInfo) -> [AttributeIndex] {
        (0..<info.attributeCount).compactMap { slot in
            let attribute = info.attribute(at: slot)
            return attribute.isIndexed ? AttributeIndex(slot: slot, type: attribute.type) : nil
        }
    }

    /// The same rows indexed for `info`: rebuilt if it indexes other attributes.
    func reindexed(for info: EntityInfo) -> EntityTable {
        let wanted = Self.indexes(for: info)
        guard wanted.map(\.slot) != indexes.map(\.slot) else { return self }
        var table = self
        table.indexes = wanted
        forEach { key, row in table.updateIndexes(key: key, from: nil, to: row.values) }
        return table
    }

    /// Keeps every index current when the row of `key` changes from `old` to `new`.
    mutating func updateIndexes(key: Int64, from old: [StoreValue]?, to new: [StoreValue]?) {
        for position in indexes.indices {
            let slot = indexes[position].slot
            let before = old?[slot]
            let after = new?[slot]
            if before == after { continue }
            indexes[position].update(key: key, from: before, to: after)
        }
    }

    /// The index of the attribute at `slot`, if it has one.
    func index(ofSlot slot: Int) -> AttributeIndex? {
        indexes.first { $0.slot == slot }
    }
}
