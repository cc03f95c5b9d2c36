import Foundation

extension CompiledSort {
    /// The ``ASCIICollationKey``s of one localized sort key's strings, for the rows that have
    /// one: a sort of strings of which only some are printable ASCII compares those pairs by
    /// their keys and calls Foundation only for the others, in the same order.
    struct CollationKeys {
        /// The keys, one after another: row `r`'s are `starts[r]..<starts[r + 1]`.
        let bytes: [UInt8]
        let starts: [Int]
        /// Whether row `r` has a key (its value is a printable ASCII string).
        let hasKey: [Bool]

        /// -1, 0 or 1: how rows `lhs` and `rhs` order, when both have keys; `nil` otherwise.
        func compare(_ lhs: Int, _ rhs: Int) -> Int? {
            guard hasKey[lhs], hasKey[rhs] else { return nil }
            return bytes.withUnsafeBufferPointer { bytes in
                let (a, b) = (
                    UnsafeBufferPointer(rebasing: bytes[starts[lhs]..<starts[lhs + 1]]),
                    UnsafeBufferPointer(rebasing: bytes[starts[rhs]..<starts[rhs + 1]])
                )
                // Keys are bytes, so `memcmp` orders them; the shorter one first where one is
                // the other's start.
                let common = Swift.min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                if order != 0 { return order < 0 ? -1 : 1 }
                return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
            }
        }
    }

    /// For each sort key, the collation keys of `rows`' sort values (``sortValues(of:key:resolver:)``)
    /// when the key compares strings localized, some have keys and the current locale orders
    /// them as the keys do; `nil` for the other sort keys, and when no key has any.
    func collationKeys(of rows: [[StoreValue]]) -> [CollationKeys?]? {
        var found = false
        let all = keys.indices.map { index -> CollationKeys? in
            let comparison = keys[index].comparison
            switch comparison {
            case .caseSensitive, .caseInsensitive: return nil
            case .localized, .localizedCaseInsensitive, .localizedStandard: break
            }
            guard ASCIICollationKey.knownAgreement(comparison) != false else { return nil }
            var bytes: [UInt8] = []
            var starts: [Int] = []
            starts.reserveCapacity(rows.count + 1)
            var hasKey = [Bool](repeating: false, count: rows.count)
            var any = false
            var writer = ASCIICollationKey.Writer()
            for row in rows.indices {
                starts.append(bytes.count)
                guard case .string(var text) = rows[row][index] else { continue }
                text.makeContiguousUTF8()
                let keyed = text.utf8.withContiguousStorageIfAvailable {
                    writer.append($0, comparison: comparison, to: &bytes)
                }
                hasKey[row] = keyed == true
                any = any || keyed == true
            }
            starts.append(bytes.count)
            // Probed only when some string has a key.
            let probing = rows.count >= ColumnSortKey.rowsWorthProbing
            guard any, ASCIICollationKey.agreesWithFoundation(comparison, probing: probing) else { return nil }
            found = true
            return CollationKeys(bytes: bytes, starts: starts, hasKey: hasKey)
        }
        return found ? all : nil
    }

    /// -1, 0 or 1: how rows `lhs` and `rhs` of `rows` order, as ``compare(_:_:)`` orders their
    /// sort values, comparing collation keys where both rows have them.
    func compare(_ rows: [[StoreValue]], _ lhs: Int, _ rhs: Int, collation: [CollationKeys?]) -> Int {
        for (index, key) in keys.enumerated() {
            let order =
                collation[index]?.compare(lhs, rhs)
                ?? SortOrdering.compare(rows[lhs][index], rows[rhs][index], key.comparison)
            if order != 0 { return key.ascending ? order : -order }
        }
        return 0
    }
}
