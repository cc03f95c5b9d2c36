import Foundation

extension CompiledSort {
    /// For each sort key, the ``ASCIICollationKeys`` of `rows`' sort values
    /// (``sortValues(of:key:resolver:)``) when it compares strings localized, some have keys and
    /// the current locale orders them as the keys do; `nil` for the other sort keys. A sort of
    /// strings of which only some are printable ASCII then compares those pairs by their keys and
    /// calls Foundation only for the others, in the same order.
    func collationKeys(of rows: [[StoreValue]]) -> [ASCIICollationKeys?] {
        keys.indices.map { index in
            switch keys[index].comparison {
            case .caseSensitive, .caseInsensitive: return nil
            case .localized, .localizedCaseInsensitive, .localizedStandard:
                return ASCIICollationKeys(
                    count: rows.count, comparison: keys[index].comparison, requiringKeys: false,
                    value: { rows[$0][index] })
            }
        }
    }

    /// -1, 0 or 1: how rows `lhs` and `rhs` of `rows` order, as ``compare(_:_:)`` orders their
    /// sort values, comparing collation keys where both rows have them.
    func compare(_ rows: [[StoreValue]], _ lhs: Int, _ rhs: Int, collation: [ASCIICollationKeys?]) -> Int {
        for (index, key) in keys.enumerated() {
            let order =
                collation[index]?.compare(lhs, rhs)
                ?? SortOrdering.compare(rows[lhs][index], rows[rhs][index], key.comparison)
            if order != 0 { return key.ascending ? order : -order }
        }
        return 0
    }
}
