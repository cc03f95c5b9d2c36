import Testing

@testable import ObjectGraph

/// ``ColumnSort/stringOrder(_:ascending:_:)`` compares ASCII keys by their first sixteen bytes as
/// words: it must order every key exactly as Swift's `<` and `==` do, ties in position order.
@Suite struct ColumnSortStringTests {
    static let keys: [String?] = [
        "ab", "ab\0", "a", "", nil, "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnop\0", "abcdefghijklmnoq",
        "abcdefgh", "abcdefgh\0\0", "é", "e\u{301}", "e", "f", "ab", "Ab", "aB", "~", "\u{7F}", "a item 12", "a item 1",
        "a item 12345678901", "a item 12345678900", "café", "cafe\u{301}", "cafe", nil, "z\u{10FFFF}", "\r\n", "\r",
        "abcdefghijklmnopé", "abcdefghijklmnope\u{301}", "abcdefghijklmnop",
    ]

    /// The order Swift's comparison gives, ties (and nils, first) in position order.
    static func expected(ascending: Bool) -> [Int] {
        let nils = keys.indices.filter { keys[$0] == nil }
        let values = keys.indices.filter { keys[$0] != nil }.sorted { lhs, rhs in
            let (a, b) = (keys[lhs]!, keys[rhs]!)
            if a == b { return lhs < rhs }
            return ascending ? a < b : b < a
        }
        return ascending ? nils + values : values + nils
    }

    @Test(arguments: [true, false])
    func stringKeysSortAsSwiftComparesThem(ascending: Bool) {
        let order = ColumnSort.stringOrder(Self.keys.count, ascending: ascending) { position in
            Self.keys[position].map { .value($0) } ?? .null
        }
        #expect(order == Self.expected(ascending: ascending))
    }
}
