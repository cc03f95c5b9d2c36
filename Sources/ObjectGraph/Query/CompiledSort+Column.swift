import Foundation

extension CompiledSort {
    /// The order of `rows` (positions into it) under this sort, ties in position order, when the
    /// sort is one key on an attribute of the object itself whose values are all of one
    /// numeric, date or string kind (or nil); `nil` otherwise, for the general comparison.
    ///
    /// Sorts typed keys (`Int64`, `Double`, `String`) in flat arrays instead of comparing
    /// `StoreValue` arrays: no allocation per row for integers, doubles and dates, and the same
    /// order as ``SortOrdering`` (nil first, then NaN, then numbers; strings in Swift order,
    /// case-folded for `.caseInsensitive`; reversed for descending, ties kept in place).
    func columnOrder(of rows: [FetchCandidate]) -> [Int]? {
        guard keys.count == 1, case .slot(let slot) = keys[0].getter else { return nil }
        let key = keys[0]
        guard let first = rows.first(where: { !$0.values[slot].isNull })?.values[slot] else {
            return Array(rows.indices)
        }
        switch first {
        case .int:
            return ColumnSort.order(rows.count, ascending: key.ascending) { position -> ColumnSort.Key<Int64> in
                switch rows[position].values[slot] {
                case .null: .null
                case .int(let value): .value(value)
                default: .other
                }
            }
        case .double, .float, .date:
            return ColumnSort.order(rows.count, ascending: key.ascending) { position -> ColumnSort.Key<Double> in
                let number: Double
                switch rows[position].values[slot] {
                case .null: return .null
                case .double(let value): number = value
                case .float(let value): number = Double(value)
                case .date(let date): number = date.timeIntervalSinceReferenceDate
                default: return .other
                }
                return number.isNaN ? .nan : .value(number)
            }
        case .string:
            let folds: Bool
            switch key.comparison {
            case .caseSensitive: folds = false
            case .caseInsensitive: folds = true
            default: return nil
            }
            return ColumnSort.order(rows.count, ascending: key.ascending) { position -> ColumnSort.Key<String> in
                switch rows[position].values[slot] {
                case .null: return .null
                case .string(let text): return .value(folds ? PredicateFolding.fold(text, .caseInsensitive) : text)
                default: return .other
                }
            }
        default:
            return nil
        }
    }
}

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
