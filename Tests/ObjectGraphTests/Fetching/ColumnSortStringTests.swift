import Foundation
import Testing

@testable import ObjectGraph

/// ``ColumnSort/order(_:keys:)`` sorts strings by eight bytes of their NFC form at a time and
/// numbers as words: it must order every key exactly as Swift's `<` and `==` (and
/// ``SortOrdering``) do, ties in position order, for every shape of data.
@Suite struct ColumnSortStringTests {
    static let keys: [String?] = [
        "ab", "ab\0", "a", "", nil, "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnop\0", "abcdefghijklmnoq",
        "abcdefgh", "abcdefgh\0\0", "é", "e\u{301}", "e", "f", "ab", "Ab", "aB", "~", "\u{7F}", "a item 12", "a item 1",
        "a item 12345678901", "a item 12345678900", "café", "cafe\u{301}", "cafe", nil, "z\u{10FFFF}", "\r\n", "\r",
        "abcdefghijklmnopé", "abcdefghijklmnope\u{301}", "abcdefghijklmnop", "\u{212B}", "Å", "A\u{30A}", "\u{FFFF}",
        "\u{E000}", "😀", "日本語", "日本", "한국어", "\u{1100}\u{1161}", "가", "ＡＢＣ", "straße", "STRASSE",
    ]

    /// The order Swift's comparison gives (of the keys as `transform` makes them), ties (and
    /// nils, first) in position order.
    static func expected(_ keys: [String?], ascending: Bool, _ transform: (String) -> String = { $0 }) -> [Int] {
        let keys = keys.map { $0.map(transform) }
        let nils = keys.indices.filter { keys[$0] == nil }
        let values = keys.indices.filter { keys[$0] != nil }.sorted { lhs, rhs in
            let (a, b) = (keys[lhs]!, keys[rhs]!)
            if a == b { return lhs < rhs }
            return ascending ? a < b : b < a
        }
        return ascending ? nils + values : values + nils
    }

    /// The string key of `keys` as rows of one attribute.
    static func stringKey(_ keys: [String?], ascending: Bool, folds: Bool = false) -> ColumnSortKey {
        let rows = keys.enumerated().map { position, key in
            FetchCandidate(key: Int64(position + 1), values: [key.map(StoreValue.string) ?? .null], version: 1)
        }
        return .strings(rows, slot: 0, ascending: ascending, folds: folds)!
    }

    static func order(_ keys: [String?], ascending: Bool, folds: Bool = false) -> [Int]? {
        ColumnSort.order(keys.count, keys: [stringKey(keys, ascending: ascending, folds: folds)])
    }

    @Test(arguments: [true, false])
    func stringKeysSortAsSwiftComparesThem(ascending: Bool) {
        #expect(Self.order(Self.keys, ascending: ascending) == Self.expected(Self.keys, ascending: ascending))
    }

    @Test(arguments: [true, false])
    func caseInsensitiveKeysSortAsTheirFoldedForms(ascending: Bool) {
        let fold = { PredicateFolding.fold($0, .caseInsensitive) }
        #expect(
            Self.order(Self.keys, ascending: ascending, folds: true)
                == Self.expected(Self.keys, ascending: ascending, fold))
    }

    /// Strings that share a prefix of 400,000 bytes take 50,000 steps of eight bytes: the sort
    /// keeps them on a list, not in nested calls, so the stack cannot run out.
    @Test(arguments: [true, false])
    func stringsSharingAVeryLongPrefixSortWithoutExhaustingTheStack(ascending: Bool) {
        let prefix = String(repeating: "a", count: 400_000)
        let keys: [String?] = [prefix + "c", prefix + "b", prefix, prefix + "b", nil, prefix + "é"]
        #expect(Self.order(keys, ascending: ascending) == Self.expected(keys, ascending: ascending))
    }

    // MARK: - Random keys

    /// Pieces random keys are made of: ASCII (capitals, NUL, DEL), precomposed and combining
    /// characters, singletons that NFC replaces (Angstrom and Ohm signs), Hangul jamo that
    /// compose, CJK, scalars around the UTF-16 surrogate range, emoji.
    static let pieces = [
        "a", "b", "z", "A", "Z", "0", " ", "~", "\0", "\u{7F}", "é", "e\u{301}", "\u{301}", "\u{327}", "ß", "İ", "ﬁ",
        "Å", "\u{212B}", "\u{2126}", "Ω", "가", "\u{1100}", "\u{1161}", "\u{11A8}", "日", "本", "\u{D7FF}", "\u{E000}",
        "\u{FFFD}", "😀", "\u{10FFFF}", "ж", "Ж", "α", "ώ", "\u{3099}", "か", "が", "ａ",
    ]

    /// `count` random keys: some nil, some empty, many sharing a prefix longer than a word (or
    /// two), some equal to others.
    static func randomKeys(count: Int, seed: UInt64, pieces: [String]) -> [String?] {
        var generator = SeededGenerator(seed: seed)
        let prefixes = ["", "", "common prefix ", "0123456789abcdef", "日本語の長い接頭辞", "e\u{301}e\u{301}e\u{301}e\u{301}x"]
        var keys: [String?] = []
        for _ in 0..<count {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: keys.append(nil)
            case 1: keys.append("")
            case 2 where !keys.isEmpty: keys.append(keys.randomElement(using: &generator)!)
            default:
                var key = prefixes.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 0...10, using: &generator) {
                    key += pieces.randomElement(using: &generator)!
                }
                keys.append(key)
            }
        }
        return keys
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomKeysSortAsSwiftComparesThem(seed: UInt64) {
        // ASCII only (the radix and byte paths), then every piece (NFC checks, `<` fallback).
        let ascii = Self.pieces.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        for pieces in [ascii, Self.pieces] {
            // Long enough for the radix sort, and short runs for the comparison sort.
            for count in [40, 3_000] {
                let keys = Self.randomKeys(count: count, seed: seed, pieces: pieces)
                let fold = { PredicateFolding.fold($0, .caseInsensitive) }
                for ascending in [true, false] {
                    #expect(Self.order(keys, ascending: ascending) == Self.expected(keys, ascending: ascending))
                    #expect(
                        Self.order(keys, ascending: ascending, folds: true)
                            == Self.expected(keys, ascending: ascending, fold))
                }
            }
        }
    }

    @Test func nfcKeysWithoutCombiningCharactersSortByBytes() {
        // No key needs composing: the byte order is used (and must equal Swift's).
        let pieces = ["é", "ü", "日", "本", "가", "ж", "😀", "a", "A", "\u{E000}", "\u{FFFD}", "\u{10FFFF}"]
        let keys = Self.randomKeys(count: 2_000, seed: 9, pieces: pieces).map {
            $0?.replacingOccurrences(of: "e\u{301}", with: "é")
        }
        guard case .strings(let column) = Self.stringKey(keys, ascending: true).values else {
            Issue.record("not a string column")
            return
        }
        #expect(column.bytesOrder)
        #expect(Self.order(keys, ascending: true) == Self.expected(keys, ascending: true))
        #expect(Self.order(keys, ascending: false) == Self.expected(keys, ascending: false))
    }

    // MARK: - Numbers and several keys

    @Test(arguments: [true, false])
    func doublesSortAsSortOrderingComparesThem(ascending: Bool) {
        var generator = SeededGenerator(seed: 5)
        let specials: [Double?] = [nil, .nan, -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -1, 1]
        let numbers: [Double?] = (0..<1_000).map { _ in
            Bool.random(using: &generator)
                ? specials.randomElement(using: &generator)! : Double(Int.random(in: -50...50, using: &generator)) / 4
        }
        let values = numbers.map { $0.map(StoreValue.double) ?? .null }
        let expected = values.indices.sorted { lhs, rhs in
            let order = SortOrdering.compare(values[lhs], values[rhs], .caseSensitive)
            return order != 0 ? (ascending ? order < 0 : order > 0) : lhs < rhs
        }
        #expect(ColumnSort.order(numbers.count, keys: [.doubles(numbers, ascending: ascending)]) == expected)
    }

    @Test func laterKeysBreakTiesOfEarlierOnes() {
        var generator = SeededGenerator(seed: 11)
        let count = 2_000
        let prices: [Int64?] = (0..<count).map { _ in
            Int.random(in: 0..<8, using: &generator) == 0 ? nil : Int64.random(in: -3...3, using: &generator)
        }
        let names = Self.randomKeys(count: count, seed: 12, pieces: Self.pieces)
        let flags: [Int64?] = (0..<count).map { _ in Int64.random(in: 0...1, using: &generator) }
        for (priceAscending, nameAscending) in [(true, true), (false, true), (true, false), (false, false)] {
            let keys: [ColumnSortKey] = [
                .integers(prices, ascending: priceAscending), Self.stringKey(names, ascending: nameAscending),
                .integers(flags, ascending: true),
            ]
            let rows = (0..<count).map { position in
                [
                    prices[position].map(StoreValue.int) ?? .null, names[position].map(StoreValue.string) ?? .null,
                    flags[position].map(StoreValue.int) ?? .null,
                ]
            }
            let ascending = [priceAscending, nameAscending, true]
            let expected = rows.indices.sorted { lhs, rhs in
                for key in 0..<3 {
                    let order = SortOrdering.compare(rows[lhs][key], rows[rhs][key], .caseSensitive)
                    if order != 0 { return ascending[key] ? order < 0 : order > 0 }
                }
                return lhs < rhs
            }
            #expect(ColumnSort.order(count, keys: keys) == expected)
        }
    }
}
