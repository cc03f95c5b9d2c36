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
            return ColumnSort.stringOrder(rows.count, ascending: key.ascending) { position -> ColumnSort.Key<String> in
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
