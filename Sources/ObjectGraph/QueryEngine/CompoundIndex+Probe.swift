import Foundation

extension CompoundIndex {
    /// The keys of the rows that may satisfy `conjuncts` (a superset of the matches), in index
    /// order, looked up by an equality test on each of the index's first attributes and a range
    /// (or equality) on the next one; `nil` if no conjunct tests the first attribute, or more
    /// than `limit` rows would be candidates. `columnsUsed` is how many attributes the lookup
    /// narrowed by.
    func candidates(
        for conjuncts: [(slot: Int, test: ValueMatcher)], limit: Int
    ) -> (keys: [Int64], columnsUsed: Int)? {
        var lower: [CompoundIndexKey.Component] = []
        var upper: [CompoundIndexKey.Component] = []
        var used = 0
        columns: for (slot, column) in zip(slots, columns) {
            var range: (lower: CompoundIndexKey.Component?, upper: CompoundIndexKey.Component?)?
            for (conjunctSlot, test) in conjuncts where conjunctSlot == slot {
                guard case .ranges(let ranges) = test.indexProbe, ranges.count == 1,
                    let bounds = Self.components(ranges[0], in: column)
                else { continue }
                if bounds.lower != nil && bounds.lower == bounds.upper {
                    range = bounds
                    break
                }
                if range == nil { range = bounds }
            }
            guard let range else { break }
            used += 1
            if let low = range.lower, low == range.upper {
                lower.append(low)
                upper.append(low)
                continue
            }
            if let low = range.lower { lower.append(low) }
            if let high = range.upper { upper.append(high) }
            break columns
        }
        guard used > 0 else { return nil }
        upper.append(.past)
        var keys: [Int64] = []
        guard
            sorted.appendKeys(
                from: CompoundIndexKey(components: lower), through: CompoundIndexKey(components: upper),
                into: &keys, limit: limit)
        else { return nil }
        return (keys, used)
    }

    /// The range's bounds as components of `column` (`nil` in the result: unbounded); `nil` if
    /// a bound does not fit the column.
    private static func components(
        _ range: (lower: IndexProbe.Bound?, upper: IndexProbe.Bound?), in column: CompoundIndexKey.Column
    ) -> (lower: CompoundIndexKey.Component?, upper: CompoundIndexKey.Component?)? {
        func convert(_ bound: IndexProbe.Bound?, isLower: Bool) -> CompoundIndexKey.Component?? {
            guard let bound else { return .some(nil) }
            switch (column, bound) {
            case (.integer, .number(let number)):
                return .integer(isLower ? number.integerFloor : number.integerCeiling)
            case (.real, .number(let number)):
                return .real(isLower ? number.realFloor : number.realCeiling)
            case (.decimal, .number(let number)):
                return (isLower ? number.decimalFloor : number.decimalCeiling).map { .decimal($0) }
            case (.string, .string(let text)): return .string(text)
            case (.uuid, .uuid(let key)): return .uuid(key)
            default: return nil
            }
        }
        guard let lower = convert(range.lower, isLower: true), let upper = convert(range.upper, isLower: false) else {
            return nil
        }
        return (lower, upper)
    }
}
