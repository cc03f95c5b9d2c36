import Foundation

extension CompiledSort {
    /// The order of `rows` (positions into it) under this sort, ties in position order, when
    /// every key is the object's own ID or an attribute of the object itself whose values are
    /// all of one kind the column sort reads (integers and booleans; doubles and floats; dates;
    /// strings compared case-sensitively or case-insensitively), or nil; `nil` otherwise, for
    /// the general comparison.
    ///
    /// Sorts typed keys (``ColumnSortKey``) instead of comparing `StoreValue` arrays: no
    /// allocation per row, and the same order as ``SortOrdering`` (nil first, then NaN, then
    /// values; strings in Swift order, case-folded for `.caseInsensitive`; reversed for
    /// descending, ties kept in place).
    func columnOrder(of rows: [FetchCandidate]) -> [Int]? {
        var columns: [ColumnSortKey] = []
        columns.reserveCapacity(keys.count)
        for key in keys {
            guard let column = Self.column(key, of: rows) else { return nil }
            columns.append(column)
        }
        return ColumnSort.order(rows.count, keys: columns)
    }

    /// The typed column of one key over `rows`; `nil` if the column sort cannot read it.
    private static func column(_ key: Key, of rows: [FetchCandidate]) -> ColumnSortKey? {
        let slot: Int
        switch key.getter {
        case .evaluatedObject:
            // The object's own ID: its key, as every object of a fetch is of one entity.
            return .integers(rows.map(\.key), ascending: key.ascending)
        case .slot(let index): slot = index
        default: return nil
        }
        guard let first = rows.first(where: { !$0.values[slot].isNull })?.values[slot] else {
            return .integers([Int64?](repeating: nil, count: rows.count), ascending: key.ascending)
        }
        switch first {
        case .int, .bool:
            var numbers: [Int64?] = []
            numbers.reserveCapacity(rows.count)
            for index in rows.indices {
                switch rows[index].values[slot] {
                case .null: numbers.append(nil)
                case .int(let value): numbers.append(value)
                case .bool(let flag): numbers.append(flag ? 1 : 0)
                default: return nil
                }
            }
            return .integers(numbers, ascending: key.ascending)
        case .double, .float:
            var numbers: [Double?] = []
            numbers.reserveCapacity(rows.count)
            for index in rows.indices {
                switch rows[index].values[slot] {
                case .null: numbers.append(nil)
                case .double(let value): numbers.append(value)
                case .float(let value): numbers.append(Double(value))
                default: return nil
                }
            }
            return .doubles(numbers, ascending: key.ascending)
        case .date:
            // Dates compare with dates only (``SortOrdering`` orders a date and a number by kind).
            var numbers: [Double?] = []
            numbers.reserveCapacity(rows.count)
            for index in rows.indices {
                switch rows[index].values[slot] {
                case .null: numbers.append(nil)
                case .date(let date): numbers.append(date.timeIntervalSinceReferenceDate)
                default: return nil
                }
            }
            return .doubles(numbers, ascending: key.ascending)
        case .string:
            let folds: Bool
            switch key.comparison {
            case .caseSensitive: folds = false
            case .caseInsensitive: folds = true
            default: return nil
            }
            return .strings(rows, slot: slot, ascending: key.ascending, folds: folds)
        default:
            return nil
        }
    }
}
