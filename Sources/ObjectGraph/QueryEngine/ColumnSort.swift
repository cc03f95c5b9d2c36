import Foundation

/// Sorting positions by one typed key.
enum ColumnSort {
    /// A row's key: nil, NaN (numbers only), a value, or a kind the column sort does not handle.
    enum Key<Value: Comparable> {
        case null, nan, value(Value), other
    }

    private struct Entry<Value: Comparable> {
        var value: Value
        var position: Int32
    }

    /// Positions `0..<count` sorted by `key` (nil, then NaN, then values ascending; the whole
    /// order reversed when not `ascending`, ties in position order); `nil` if a key is `.other`.
    static func order<Value: Comparable>(_ count: Int, ascending: Bool, _ key: (Int) -> Key<Value>) -> [Int]? {
        guard count < Int(Int32.max) else { return nil }
        var nulls: [Int] = []
        var nans: [Int] = []
        var entries: [Entry<Value>] = []
        entries.reserveCapacity(count)
        for position in 0..<count {
            switch key(position) {
            case .null: nulls.append(position)
            case .nan: nans.append(position)
            case .value(let value): entries.append(Entry(value: value, position: Int32(position)))
            case .other: return nil
            }
        }
        if ascending {
            entries.sort { $0.value < $1.value || ($0.value == $1.value && $0.position < $1.position) }
        } else {
            entries.sort { $1.value < $0.value || ($0.value == $1.value && $0.position < $1.position) }
        }
        var order: [Int] = []
        order.reserveCapacity(count)
        if ascending {
            order += nulls
            order += nans
        }
        for entry in entries { order.append(Int(entry.position)) }
        if !ascending {
            order += nans
            order += nulls
        }
        return order
    }
}
