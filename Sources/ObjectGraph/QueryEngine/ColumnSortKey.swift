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
        /// Each position's string (case-folded when the key folds; `nil` for nil) and whether
        /// every string is known to be in NFC, so that its bytes order it; if not, strings
        /// compare with Swift's `<`.
        case strings([String?], bytesOrder: Bool)
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

    /// Strings, nil where `nil`; with `folds`, compared as ``PredicateFolding`` folds them
    /// for `[c]` (the order of `caseInsensitiveCompare:`-style sort descriptors).
    static func strings(_ texts: [String?], ascending: Bool, folds: Bool) -> ColumnSortKey {
        var texts = texts
        var bytesOrder = true
        for position in texts.indices {
            guard var text = texts[position] else { continue }
            let ascii = isASCII(text)
            if folds, !ascii {
                text = PredicateFolding.fold(text, .caseInsensitive)
                texts[position] = text
            }
            if !text.isContiguousUTF8 {
                text.makeContiguousUTF8()
                texts[position] = text
            }
            if bytesOrder, !ascii, !isKnownNFC(text) { bytesOrder = false }
        }
        if folds, !bytesOrder {
            // Compared with `<`: ASCII strings are folded too.
            for position in texts.indices {
                if let text = texts[position], isASCII(text) { texts[position] = text.lowercased() }
            }
        }
        return ColumnSortKey(values: .strings(texts, bytesOrder: bytesOrder), ascending: ascending, lowersASCII: folds)
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

    /// Whether `text` is ASCII (a quick look at its UTF-8).
    private static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `text` is known to be in NFC: all its scalars are below U+0300 (no byte from
    /// 0xCC up, where canonical composition has nothing to do), or the standard library's
    /// normalization check says so. `false` only costs speed: such keys compare with `<`.
    private static func isKnownNFC(_ text: String) -> Bool {
        let belowCombiningMarks = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0xCC }
        }
        if belowCombiningMarks == true { return true }
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var span = text.utf8Span
            return span.checkForNFC(quickCheck: false)
        }
        return false
    }
}
