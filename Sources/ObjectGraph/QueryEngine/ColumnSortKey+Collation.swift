import Foundation

extension ColumnSortKey {
    /// The rows from which a localized sort pays for probing the locale: about 9,000 Foundation
    /// comparisons, which a comparison sort of 1,000 rows makes.
    static let rowsWorthProbing = 1_000

    /// The strings at `slot` of `rows` under a localized `comparison`, as their
    /// ``ASCIICollationKey``s, nil where nil; `nil` if a value is neither nil nor a printable
    /// ASCII string, or if the current locale does not order strings as the keys do (or that is
    /// not known yet and the sort has fewer than ``rowsWorthProbing`` rows).
    static func collated(
        _ rows: [FetchCandidate], slot: Int, ascending: Bool, comparison: SortDescriptor.Comparison
    ) -> ColumnSortKey? {
        // A locale known to order ASCII otherwise: no keys to make.
        guard ASCIICollationKey.knownAgreement(comparison) != false else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.count * 24)
        var starts: [Int] = []
        starts.reserveCapacity(rows.count + 1)
        var isNil = [Bool](repeating: false, count: rows.count)
        var writer = ASCIICollationKey.Writer()
        for position in rows.indices {
            starts.append(bytes.count)
            switch rows[position].values[slot] {
            case .null: isNil[position] = true
            case .string(var text):
                var keyed = text.utf8.withContiguousStorageIfAvailable {
                    writer.append($0, comparison: comparison, to: &bytes)
                }
                if keyed == nil {
                    text.makeContiguousUTF8()
                    keyed = text.utf8.withContiguousStorageIfAvailable {
                        writer.append($0, comparison: comparison, to: &bytes)
                    }
                }
                guard keyed == true else { return nil }
            default: return nil
            }
        }
        starts.append(bytes.count)
        // Probed only once every string has a key; a sort of fewer rows makes fewer Foundation
        // comparisons than the probe.
        let probing = rows.count >= rowsWorthProbing
        guard ASCIICollationKey.agreesWithFoundation(comparison, probing: probing) else { return nil }
        let column = StringColumn(
            rows: rows, slot: slot, replaced: [], bytes: bytes, starts: starts, isNil: isNil, bytesOrder: true)
        return ColumnSortKey(values: .strings(column), ascending: ascending)
    }
}
