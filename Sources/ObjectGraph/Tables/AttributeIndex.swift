import Foundation

/// The in-memory index of one attribute marked `isIndexed` (or a fetch index of one attribute):
/// the keys of an entity's committed rows sorted by the attribute's value; or of a compound
/// fetch index, sorted by several.
///
/// Integers and Bools are indexed as `Int64`; floats, doubles and dates (as seconds since the
/// reference date) as `Double`; strings in Swift `String` order; decimals as `Decimal`; UUIDs in
/// byte order. Rows whose value is nil or NaN are not in a one-attribute index: no comparison
/// an index answers matches them. Other types are not indexed and their predicates scan.
enum AttributeIndex: Sendable {
    case integer(slot: Int, SortedKeyIndex<Int64>)
    case real(slot: Int, SortedKeyIndex<Double>)
    case string(slot: Int, SortedKeyIndex<String>)
    case decimal(slot: Int, SortedKeyIndex<Decimal>)
    case uuid(slot: Int, SortedKeyIndex<UUIDIndexKey>)
    case compound(CompoundIndex)

    /// An empty index for the attribute at `slot`, or `nil` if its type is not indexable.
    init?(slot: Int, type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: self = .integer(slot: slot, SortedKeyIndex())
        case .float, .double, .date: self = .real(slot: slot, SortedKeyIndex())
        case .string: self = .string(slot: slot, SortedKeyIndex())
        case .decimal: self = .decimal(slot: slot, SortedKeyIndex())
        case .uuid: self = .uuid(slot: slot, SortedKeyIndex())
        default: return nil
        }
    }

    /// The slot of the attribute (the first attribute of a compound index).
    var slot: Int {
        switch self {
        case .integer(let slot, _), .real(let slot, _), .string(let slot, _), .decimal(let slot, _),
            .uuid(let slot, _):
            slot
        case .compound(let index): index.slots[0]
        }
    }

    /// The slots of the attributes, most significant first.
    var slots: [Int] {
        if case .compound(let index) = self { return index.slots }
        return [slot]
    }

    /// The number of indexed rows.
    var count: Int {
        switch self {
        case .integer(_, let index): index.count
        case .real(_, let index): index.count
        case .string(_, let index): index.count
        case .decimal(_, let index): index.count
        case .uuid(_, let index): index.count
        case .compound(let index): index.sorted.count
        }
    }

    static func integer(_ value: StoreValue) -> Int64? {
        switch value {
        case .int(let value): value
        case .bool(let flag): flag ? 1 : 0
        default: nil
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

    static func decimal(_ value: StoreValue) -> Decimal? {
        guard case .decimal(let number) = value, !number.isNaN else { return nil }
        return number
    }

    static func uuid(_ value: StoreValue) -> UUIDIndexKey? {
        guard case .uuid(let uuid) = value else { return nil }
        return UUIDIndexKey(uuid)
    }

    /// Replaces the entry of `key` for `old` (nil: none) with one for `new` (nil: none), the
    /// values of the index's attribute.
    mutating func update(key: Int64, from old: StoreValue?, to new: StoreValue?) {
        // Each case is taken out of `self` (left holding an empty index) so that the index is
        // uniquely referenced while it changes, not copied.
        switch self {
        case .integer(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            Self.replace(key, old.flatMap(Self.integer), new.flatMap(Self.integer), in: &index)
            self = .integer(slot: slot, index)
        case .real(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            Self.replace(key, old.flatMap(Self.real), new.flatMap(Self.real), in: &index)
            self = .real(slot: slot, index)
        case .string(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            func text(_ value: StoreValue) -> String? { if case .string(let text) = value { text } else { nil } }
            Self.replace(key, old.flatMap(text), new.flatMap(text), in: &index)
            self = .string(slot: slot, index)
        case .decimal(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            Self.replace(key, old.flatMap(Self.decimal), new.flatMap(Self.decimal), in: &index)
            self = .decimal(slot: slot, index)
        case .uuid(let slot, var index):
            self = .integer(slot: slot, SortedKeyIndex())
            Self.replace(key, old.flatMap(Self.uuid), new.flatMap(Self.uuid), in: &index)
            self = .uuid(slot: slot, index)
        case .compound:
            break  // Compound indexes change by rows: `update(key:fromRow:toRow:)`.
        }
    }

    /// Replaces the entry of `key` for the row `old` (nil: none) with one for the row `new`.
    mutating func update(key: Int64, fromRow old: [StoreValue]?, toRow new: [StoreValue]?) {
        guard case .compound(var index) = self else {
            let before = old?[slot]
            let after = new?[slot]
            if before != after { update(key: key, from: before, to: after) }
            return
        }
        self = .integer(slot: 0, SortedKeyIndex())
        index.update(key: key, from: old, to: new)
        self = .compound(index)
    }

    private static func replace<Value>(
        _ key: Int64, _ old: Value?, _ new: Value?, in index: inout SortedKeyIndex<Value>
    ) {
        if let old { index.remove(old, key: key) }
        if let new { index.insert(new, key: key) }
    }
}

extension EntityTable {
    /// An empty table with an index for each indexable attribute of `info` marked `isIndexed`
    /// and for each of its fetch indexes.
    init(indexing info: EntityInfo) {
        self.init()
        indexes = Self.indexes(for: info)
    }

    static func indexes(for info: EntityInfo) -> [AttributeIndex] {
        var indexes = (0..<info.attributeCount).compactMap { slot in
            let attribute = info.attribute(at: slot)
            return attribute.isIndexed ? AttributeIndex(slot: slot, type: attribute.type) : nil
        }
        for description in info.description.indexes {
            let slots = description.propertyNames.compactMap { info.slotByName[$0] }
            guard slots.count == description.propertyNames.count, slots.allSatisfy({ $0 < info.attributeCount }),
                !indexes.contains(where: { $0.slots == slots })
            else { continue }
            let types = slots.map { info.attribute(at: $0).type }
            if slots.count == 1 {
                if let index = AttributeIndex(slot: slots[0], type: types[0]) { indexes.append(index) }
            } else if let index = CompoundIndex(slots: slots, types: types) {
                indexes.append(.compound(index))
            }
        }
        return indexes
    }

    /// The same rows indexed for `info`: rebuilt if it indexes other attributes.
    func reindexed(for info: EntityInfo) -> EntityTable {
        let wanted = Self.indexes(for: info)
        guard wanted.map(\.slots) != indexes.map(\.slots) else { return self }
        var table = self
        table.indexes = wanted
        forEach { key, row in table.updateIndexes(key: key, from: nil, to: row.values) }
        return table
    }

    /// Keeps every index current when the row of `key` changes from `old` to `new`.
    mutating func updateIndexes(key: Int64, from old: [StoreValue]?, to new: [StoreValue]?) {
        for position in indexes.indices {
            indexes[position].update(key: key, fromRow: old, toRow: new)
        }
    }

    /// The one-attribute index of the attribute at `slot`, if it has one.
    func index(ofSlot slot: Int) -> AttributeIndex? {
        indexes.first {
            if case .compound = $0 { return false }
            return $0.slot == slot
        }
    }
}
