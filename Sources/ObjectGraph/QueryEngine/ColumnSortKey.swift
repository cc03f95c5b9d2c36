import Foundation

/// One sort key's values for the positions `0..<count` of a fetch's matches, in the form
/// ``ColumnSort/order(_:keys:)`` sorts: numbers as order-preserving 64-bit words, strings as
/// the UTF-8 bytes of their canonical composition (NFC), or under a localized comparison as
/// their ``ASCIICollationKey``s, read eight at a time.
///
/// Every form orders exactly as ``SortOrdering`` does: nil first, then NaN, then values
/// (numbers by value, `-0.0` equal to `0.0`; strings as Swift's `<` and `==` order them, which
/// is the order of their NFC forms' UTF-8 bytes, or as Foundation's localized comparison does,
/// which is their keys' order), the whole order reversed when descending.
struct ColumnSortKey {
    /// A value's class, most significant in the order: nil, NaN, then values.
    enum Class: UInt8 {
        case null = 0, nan = 1, value = 2
    }

    enum Values {
        /// Each position's class and, for values, its order-preserving word.
        case words([UInt64], [Class])
        /// Strings, read from the rows.
        case strings(StringColumn)
    }

    /// A string key's values: each position's string (case-folded when the key folds) and
    /// whether every string is known to be in NFC, so that its bytes order it (then they are
    /// copied side by side); if not, strings compare with Swift's `<`. A localized key's
    /// column holds the strings' collation keys instead (``collated(_:slot:ascending:comparison:)``).
    struct StringColumn {
        let rows: [FetchCandidate]
        let slot: Int
        /// The string compared instead of the row's where they differ (folded, or made
        /// contiguous); empty when none does.
        let replaced: [String?]
        /// When ``bytesOrder``: the compared UTF-8 bytes of every string (folded when the key
        /// folds; its collation key when it is localized), one after another; position `p`'s are
        /// `starts[p]..<starts[p + 1]`.
        let bytes: [UInt8]
        let starts: [Int]
        let isNil: [Bool]
        let bytesOrder: Bool

        /// The string compared at `position`; `nil` for nil.
        func text(at position: Int) -> String? {
            if !replaced.isEmpty, let text = replaced[position] { return text }
            if case .string(let text) = rows[position].values[slot] { return text }
            return nil
        }
    }

    let values: Values
    let ascending: Bool

    /// Integers (`Bool` as 0 or 1, as ``PredicateNumber`` reads it), nil where `nil`.
    static func integers(_ numbers: [Int64?], ascending: Bool) -> ColumnSortKey {
        var words: [UInt64] = []
        var classes: [Class] = []
        words.reserveCapacity(numbers.count)
        classes.reserveCapacity(numbers.count)
        for number in numbers {
            words.append(number.map(word(of:)) ?? 0)
            classes.append(number == nil ? .null : .value)
        }
        return ColumnSortKey(values: .words(words, classes), ascending: ascending)
    }

    /// Doubles (also floats and dates, as their `timeIntervalSinceReferenceDate`), nil where
    /// `nil`.
    static func doubles(_ numbers: [Double?], ascending: Bool) -> ColumnSortKey {
        var words: [UInt64] = []
        var classes: [Class] = []
        words.reserveCapacity(numbers.count)
        classes.reserveCapacity(numbers.count)
        for number in numbers {
            guard let number else {
                words.append(0)
                classes.append(.null)
                continue
            }
            words.append(number.isNaN ? 0 : word(of: number))
            classes.append(number.isNaN ? .nan : .value)
        }
        return ColumnSortKey(values: .words(words, classes), ascending: ascending)
    }

    /// The strings at `slot` of `rows`, nil where nil; with `folds`, compared as
    /// ``PredicateFolding`` folds them for `[c]` (the order of `caseInsensitiveCompare:`-style
    /// sort descriptors). `nil` if a value is neither a string nor nil. `folded(p)`: position
    /// `p`'s string already folded that way, where known (a value that is not ASCII).
    static func strings(
        _ rows: [FetchCandidate], slot: Int, ascending: Bool, folds: Bool, folded: (Int) -> String? = { _ in nil }
    ) -> ColumnSortKey? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.count * 16)
        var starts: [Int] = []
        starts.reserveCapacity(rows.count + 1)
        var isNil = [Bool](repeating: false, count: rows.count)
        var replaced: [String?] = []
        func replace(_ position: Int, with text: String) {
            if replaced.isEmpty { replaced = [String?](repeating: nil, count: rows.count) }
            replaced[position] = text
        }
        var bytesOrder = true
        for position in rows.indices {
            starts.append(bytes.count)
            var text: String
            switch rows[position].values[slot] {
            case .null:
                isNil[position] = true
                continue
            case .string(let value): text = value
            default: return nil
            }
            var largest = text.utf8.withContiguousStorageIfAvailable { $0.max() ?? 0 }
            if largest == nil || (folds && largest! >= 0x80) {
                if folds, largest ?? 0x80 >= 0x80 {
                    text = folded(position) ?? PredicateFolding.fold(text, .caseInsensitive)
                }
                text.makeContiguousUTF8()
                replace(position, with: text)
                largest = text.utf8.withContiguousStorageIfAvailable { $0.max() ?? 0 }
            }
            // Below 0xCC every scalar is below U+0300, where canonical composition has nothing
            // to do; above, the standard library's check decides.
            if bytesOrder, largest ?? 0xFF >= 0xCC, !isKnownNFC(text) { bytesOrder = false }
            if bytesOrder { bytes.append(contentsOf: text.utf8) }
        }
        starts.append(bytes.count)
        if folds, bytesOrder {
            // Folding ASCII is lowering its capitals (non-ASCII strings are folded already).
            for index in bytes.indices where bytes[index] &- 0x41 < 26 { bytes[index] |= 0x20 }
        }
        var column = StringColumn(
            rows: rows, slot: slot, replaced: replaced, bytes: bytesOrder ? bytes : [],
            starts: bytesOrder ? starts : [],
            isNil: isNil, bytesOrder: bytesOrder)
        if folds, !bytesOrder {
            // Compared with `<`: ASCII strings are folded too.
            for position in rows.indices {
                if let text = column.text(at: position), text.utf8.allSatisfy({ $0 < 0x80 }) {
                    replace(position, with: text.lowercased())
                }
            }
            column = StringColumn(
                rows: rows, slot: slot, replaced: replaced, bytes: [], starts: [], isNil: isNil, bytesOrder: false)
        }
        return ColumnSortKey(values: .strings(column), ascending: ascending)
    }

    /// The class of a string whose bytes go on past a word; below it, 1 + the number of bytes
    /// left (at most eight), and 0 for nil.
    static let continues: UInt8 = 10

    /// Bytes `depth..<depth + 8` of `bytes` as a big-endian word, zero past the end, and the
    /// class: ``continues`` if bytes follow, else 1 + the bytes left.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, from depth: Int) -> (UInt64, UInt8) {
        let left = bytes.count - depth
        var word: UInt64 = 0
        if left >= 8, let base = bytes.baseAddress {
            // Unaligned: a string's bytes start anywhere; eight of them are in bounds.
            word = UInt64(bigEndian: UnsafeRawPointer(base + depth).loadUnaligned(as: UInt64.self))
        } else if left > 0 {
            for index in 0..<left { word |= UInt64(bytes[depth + index]) << UInt64(56 - 8 * index) }
        }
        return (word, left > 8 ? continues : UInt8(1 + Swift.max(0, left)))
    }

    /// The word of an integer: its bits with the sign flipped, so that unsigned order is
    /// signed order.
    @inline(__always)
    static func word(of number: Int64) -> UInt64 {
        UInt64(bitPattern: number) ^ (1 << 63)
    }

    /// The word of a double that is not NaN: unsigned order is numeric order, and `-0.0` has
    /// the word of `0.0`.
    @inline(__always)
    static func word(of number: Double) -> UInt64 {
        let bits = (number == 0 ? 0.0 : number).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    /// Whether the standard library's normalization check finds `text` in NFC. `false` only
    /// costs speed: such keys compare with `<`.
    ///
    /// The quick check (each scalar's `NFC_Quick_Check` property, no normalization) settles
    /// nearly every string in NFC (Latin, Greek, Cyrillic, CJK, Hangul syllables); only a
    /// string it cannot settle (a combining mark, a conjoining jamo) is normalized to compare.
    private static func isKnownNFC(_ text: String) -> Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var span = text.utf8Span
            return span.checkForNFC(quickCheck: true) || span.checkForNFC(quickCheck: false)
        }
        return false
    }
}
