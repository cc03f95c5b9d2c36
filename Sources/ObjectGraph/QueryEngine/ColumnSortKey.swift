import Foundation

/// One sort key's values for the positions `0..<count` of a fetch's matches, in the form
/// ``ColumnSort/order(_:keys:)`` sorts: numbers as order-preserving 64-bit words, strings as
/// the UTF-8 bytes of their canonical composition (NFC), read eight at a time.
///
/// Both forms order exactly as ``SortOrdering`` does: nil first, then NaN, then values
/// (numbers by value, `-0.0` equal to `0.0`; strings as Swift's `<` and `==` order them, which
/// is the order of their NFC forms' UTF-8 bytes), the whole order reversed when descending.
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

    /// A string key's values: each position's string (case-folded when the key folds), its
    /// first word and class (see ``word(_:from:lowersASCII:)``), and whether every string is
    /// known to be in NFC, so that its bytes order it; if not, strings compare with Swift's `<`.
    struct StringColumn {
        let rows: [FetchCandidate]
        let slot: Int
        /// The string compared instead of the row's where they differ (folded, or made
        /// contiguous); empty when none does.
        let replaced: [String?]
        let firstWords: [UInt64]
        let firstMinors: [UInt8]
        let bytesOrder: Bool

        /// The string compared at `position`; `nil` for nil.
        @inline(__always)
        func text(at position: Int) -> String? {
            if !replaced.isEmpty, let text = replaced[position] { return text }
            if case .string(let text) = rows[position].values[slot] { return text }
            return nil
        }
    }

    let values: Values
    let ascending: Bool
    /// Whether ASCII capitals read as small letters (a case-insensitive key: its non-ASCII
    /// strings are folded already and hold no ASCII capitals).
    let lowersASCII: Bool

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
        return ColumnSortKey(values: .words(words, classes), ascending: ascending, lowersASCII: false)
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
        return ColumnSortKey(values: .words(words, classes), ascending: ascending, lowersASCII: false)
    }

    /// The strings at `slot` of `rows`, nil where nil; with `folds`, compared as
    /// ``PredicateFolding`` folds them for `[c]` (the order of `caseInsensitiveCompare:`-style
    /// sort descriptors). `nil` if a value is neither a string nor nil.
    static func strings(_ rows: [FetchCandidate], slot: Int, ascending: Bool, folds: Bool) -> ColumnSortKey? {
        var words = [UInt64](repeating: 0, count: rows.count)
        var minors = [UInt8](repeating: 0, count: rows.count)
        var replaced: [String?] = []
        func replace(_ position: Int, with text: String) {
            if replaced.isEmpty { replaced = [String?](repeating: nil, count: rows.count) }
            replaced[position] = text
        }
        var bytesOrder = true
        for position in rows.indices {
            var text: String
            switch rows[position].values[slot] {
            case .null: continue
            case .string(let value): text = value
            default: return nil
            }
            var measured = text.utf8.withContiguousStorageIfAvailable { bytes in
                (largest: bytes.max() ?? 0, first: Self.word(bytes, from: 0, lowersASCII: folds))
            }
            if measured == nil || (folds && measured!.largest >= 0x80) {
                if folds, measured?.largest ?? 0x80 >= 0x80 { text = PredicateFolding.fold(text, .caseInsensitive) }
                text.makeContiguousUTF8()
                replace(position, with: text)
                measured = text.utf8.withContiguousStorageIfAvailable { bytes in
                    (largest: bytes.max() ?? 0, first: Self.word(bytes, from: 0, lowersASCII: folds))
                }
            }
            guard let measured else { return nil }
            // Below 0xCC every scalar is below U+0300, where canonical composition has nothing
            // to do; above, the standard library's check decides.
            if bytesOrder, measured.largest >= 0xCC, !isKnownNFC(text) { bytesOrder = false }
            (words[position], minors[position]) = measured.first
        }
        var column = StringColumn(
            rows: rows, slot: slot, replaced: replaced, firstWords: words, firstMinors: minors, bytesOrder: bytesOrder)
        if folds, !bytesOrder {
            // Compared with `<`: ASCII strings are folded too.
            for position in rows.indices {
                if let text = column.text(at: position), text.utf8.allSatisfy({ $0 < 0x80 }) {
                    replace(position, with: text.lowercased())
                }
            }
            column = StringColumn(
                rows: rows, slot: slot, replaced: replaced, firstWords: words, firstMinors: minors, bytesOrder: false)
        }
        return ColumnSortKey(values: .strings(column), ascending: ascending, lowersASCII: folds)
    }

    /// The class of a string whose bytes go on past a word; below it, 1 + the number of bytes
    /// left (at most eight), and 0 for nil.
    static let continues: UInt8 = 10

    /// Bytes `depth..<depth + 8` of `bytes` as a big-endian word, zero past the end (ASCII
    /// capitals as small letters with `lowersASCII`), and the class: ``continues`` if bytes
    /// follow, else 1 + the bytes left.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, from depth: Int, lowersASCII: Bool) -> (UInt64, UInt8) {
        let left = bytes.count - depth
        var word: UInt64 = 0
        if left >= 8, let base = bytes.baseAddress {
            // Unaligned: a string's bytes start anywhere; eight of them are in bounds.
            word = UInt64(bigEndian: UnsafeRawPointer(base + depth).loadUnaligned(as: UInt64.self))
        } else if left > 0 {
            for index in 0..<left { word |= UInt64(bytes[depth + index]) << UInt64(56 - 8 * index) }
        }
        if lowersASCII { word = lowered(word) }
        return (word, left > 8 ? continues : UInt8(1 + Swift.max(0, left)))
    }

    /// `word` with each byte from "A" to "Z" made small (eight bytes at once).
    @inline(__always)
    static func lowered(_ word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let low = word & ~high
        let atLeastA = (low &+ 0x3F3F_3F3F_3F3F_3F3F) & high
        let pastZ = (low &+ 0x2525_2525_2525_2525) & high
        let capitals = atLeastA & ~pastZ & ~word & high
        return word | capitals >> 2
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
    private static func isKnownNFC(_ text: String) -> Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var span = text.utf8Span
            return span.checkForNFC(quickCheck: false)
        }
        return false
    }
}
