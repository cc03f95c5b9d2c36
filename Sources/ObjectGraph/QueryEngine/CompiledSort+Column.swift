import Foundation

extension CompiledSort {
    /// The order of `rows` (positions into it) under this sort, ties in position order, when
    /// every key is the object's own ID or an attribute of the object itself whose values are
    /// all of one kind the column sort reads (integers and booleans; doubles and floats; dates;
    /// strings compared case-sensitively or case-insensitively; printable ASCII strings under a
    /// localized comparison, where the locale orders them as ``ASCIICollationKey`` does), or nil;
    /// `nil` otherwise, for the general comparison.
    ///
    /// Sorts typed keys (``ColumnSortKey``) instead of comparing `StoreValue` arrays: no
    /// allocation per row, and the same order as ``SortOrdering`` (nil first, then NaN, then
    /// values; strings in Swift order, case-folded for `.caseInsensitive`, in Foundation's order
    /// for the localized comparisons; reversed for descending, ties kept in place).
    ///
    /// `table`: the committed table the rows without an object come from, whose signature
    /// columns keep case-folded values: a case-insensitive key reads a row's folded string there
    /// rather than folding it again (a column is built on first use over enough rows, kept
    /// current by the table, and shared with every later sort and `[c]` predicate).
    func columnOrder(of rows: [FetchCandidate], table: EntityTable? = nil) -> [Int]? {
        var columns: [ColumnSortKey] = []
        columns.reserveCapacity(keys.count)
        for key in keys {
            guard let column = Self.column(key, of: rows, table: table) else { return nil }
            columns.append(column)
        }
        return ColumnSort.order(rows.count, keys: columns)
    }

    /// The typed column of one key over `rows`; `nil` if the column sort cannot read it.
    private static func column(_ key: Key, of rows: [FetchCandidate], table: EntityTable?) -> ColumnSortKey? {
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
            case .localized, .localizedCaseInsensitive, .localizedStandard:
                return .collated(rows, slot: slot, ascending: key.ascending, comparison: key.comparison)
            }
            let foldedColumn = folds ? table.flatMap { foldedStrings(of: $0, slot: slot, rows: rows.count) } : nil
            return .strings(rows, slot: slot, ascending: key.ascending, folds: folds) { position in
                // A row without an object is the table's committed row; others have changed.
                guard let foldedColumn, rows[position].object == nil else { return nil }
                let index = Int(rows[position].key - 1)
                return foldedColumn.folded(
                    chunk: index >> EntityTable.chunkShift, offset: index & (EntityTable.chunkSize - 1))
            }
        default:
            return nil
        }
    }

    /// The signature column of `slot` folded as `[c]` folds, which keeps the case-folded value
    /// of each string that is not ASCII; built now if the table has none and the sort reads at
    /// least ``StringPrefixColumn/rowsWorthBuilding`` rows.
    private static func foldedStrings(of table: EntityTable, slot: Int, rows: Int) -> StringSignatureColumn? {
        table.signatureColumns.column(
            slot: slot, folding: StringSignature.folding(.caseInsensitive), of: table,
            build: rows >= StringPrefixColumn.rowsWorthBuilding,
            signer: StringSignature.signer(folding: .caseInsensitive))
    }
}
