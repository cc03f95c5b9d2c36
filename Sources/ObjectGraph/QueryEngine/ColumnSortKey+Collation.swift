import Foundation

extension ColumnSortKey {
    /// The strings at `slot` of `rows` under a localized `comparison`, as their
    /// ``ASCIICollationKey``s, nil where nil; `nil` if a value is neither nil nor a printable
    /// ASCII string, or if the current locale does not order strings as the keys do (or that is
    /// not known yet and the sort is too small to find out, ``ASCIICollationKey/rowsWorthProbing``).
    static func collated(
        _ rows: [FetchCandidate], slot: Int, ascending: Bool, comparison: SortDescriptor.Comparison
    ) -> ColumnSortKey? {
        guard
            let keys = ASCIICollationKeys(
                count: rows.count, comparison: comparison, requiringKeys: true, value: { rows[$0].values[slot] })
        else { return nil }
        let column = StringColumn(
            rows: rows, slot: slot, replaced: [], bytes: keys.bytes, starts: keys.starts,
            isNil: keys.hasKey.map { !$0 }, bytesOrder: true)
        return ColumnSortKey(values: .strings(column), ascending: ascending)
    }
}
