import Foundation
import Testing

@testable import ObjectGraph

/// ``ASCIICollationKey`` lets localized sorts of printable ASCII strings compare bytes: its keys
/// must order every string exactly as Foundation's localized comparisons do (ties where they
/// tie), and a locale that orders ASCII otherwise must fail the probe.
@Suite struct ASCIICollationKeyTests {
    typealias Comparison = ObjectGraph.SortDescriptor.Comparison
    static let localized: [Comparison] = [.localized, .localizedCaseInsensitive, .localizedStandard]

    static func key(_ text: String, _ comparison: Comparison) -> [UInt8]? {
        var key: [UInt8] = []
        return ASCIICollationKey.append(text, comparison: comparison, to: &key) ? key : nil
    }

    /// -1, 0 or 1: how the keys of two strings order.
    static func keyOrder(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        lhs == rhs ? 0 : (lhs.lexicographicallyPrecedes(rhs) ? -1 : 1)
    }

    /// Foundation's options for a localized comparison in an explicit locale.
    static func options(_ comparison: Comparison) -> String.CompareOptions {
        switch comparison {
        case .localizedCaseInsensitive: [.caseInsensitive]
        case .localizedStandard: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering]
        default: []
        }
    }

    /// A random printable ASCII string; weighted toward digits, zeros, case pairs and
    /// punctuation, where the comparisons differ.
    static func randomText(_ generator: inout SeededGenerator, maximumLength: Int) -> [UInt8] {
        let favoured = Array(" _-.,'aAbBzZ000123456789".utf8)
        return (0..<Int.random(in: 0...maximumLength, using: &generator)).map { _ in
            Bool.random(using: &generator)
                ? favoured.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator)
        }
    }

    /// A string near `text`: another one, one byte changed, a zero inserted, cases flipped, or
    /// a byte appended.
    static func neighbour(of text: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
        var other = text
        switch Int.random(in: 0...4, using: &generator) {
        case 0: other = randomText(&generator, maximumLength: 12)
        case 1 where !other.isEmpty:
            other[Int.random(in: 0..<other.count, using: &generator)] = .random(in: 0x20...0x7E, using: &generator)
        case 2: other.insert(UInt8(ascii: "0"), at: Int.random(in: 0...other.count, using: &generator))
        case 3: other = other.map { $0 &- 0x61 < 26 && Bool.random(using: &generator) ? $0 - 0x20 : $0 }
        default: other.append(.random(in: 0x20...0x7E, using: &generator))
        }
        return other
    }

    /// Foundation's comparison in English (which orders ASCII as the standard collation does,
    /// whatever the machine's locale), -1, 0 or 1.
    static func english(_ lhs: String, _ rhs: String, _ comparison: Comparison) -> Int {
        lhs.compare(rhs, options: options(comparison), range: nil, locale: Locale(identifier: "en")).rawValue
    }

    @Test(arguments: localized)
    func keysOrderPairsAsFoundationDoes(comparison: Comparison) throws {
        var generator = SeededGenerator(seed: 24)
        var disagreements: [String] = []
        var compared = 0
        for _ in 0..<20_000 {
            let left = Self.randomText(&generator, maximumLength: Bool.random(using: &generator) ? 4 : 20)
            let right = Self.neighbour(of: left, &generator)
            let (a, b) = (String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self))
            let expected = Self.english(a, b, comparison)
            // A run of 20 digits or more (about one pair in 10^9 here) has no key.
            guard let keyA = Self.key(a, comparison), let keyB = Self.key(b, comparison) else { continue }
            let actual = Self.keyOrder(keyA, keyB)
            compared += 1
            if actual != expected { disagreements.append("\(a.debugDescription) vs \(b.debugDescription)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        #expect(compared > 19_900)
    }

    @Test func keysOfTheCasesThatDiffer() throws {
        func order(_ a: String, _ b: String, _ comparison: Comparison) -> Int? {
            guard let left = Self.key(a, comparison), let right = Self.key(b, comparison) else { return nil }
            return Self.keyOrder(left, right)
        }
        // Case after letters: lower first, decided by the first character whose case differs.
        #expect(order("a", "A", .localized) == -1)
        #expect(order("aB", "Ab", .localized) == -1)
        #expect(order("ab", "A", .localized) == 1)
        #expect(order("a", "A", .localizedCaseInsensitive) == 0)
        // Punctuation and spaces weigh, before digits and letters.
        #expect(order("a b", "ab", .localized) == -1)
        #expect(order("_", "-", .localized) == -1)
        #expect(order("$", "0", .localized) == -1)
        // Numbers by value; leading zeros and case break ties by the first element that differs.
        #expect(order("file9", "file10", .localizedStandard) == -1)
        #expect(order("file9", "file10", .localized) == 1)
        #expect(order("01", "1", .localizedStandard) == 1)
        #expect(order("0", "00", .localizedStandard) == -1)
        #expect(order("a01b1", "a1b001", .localizedStandard) == 1)
        #expect(order("A1", "a01", .localizedStandard) == 1)
        #expect(order("01a", "1A", .localizedStandard) == 1)
        #expect(order("", "0", .localizedStandard) == -1)
        // Numbers up to 19 digits (past 63 bits) and 250 leading zeros compare by value, as
        // Foundation compares them; it orders longer numbers by their value modulo 2^64, so those
        // have no key.
        let numbers = [
            "9223372036854775808", "9999999999999999999", "1000000000000000000", "x9999999999999999998",
            "x" + String(repeating: "0", count: 250) + "1", "x2", "x10", "x09",
        ]
        for a in numbers {
            for b in numbers { #expect(order(a, b, .localizedStandard) == Self.english(a, b, .localizedStandard)) }
        }
        #expect(Self.key("18446744073709551616", .localizedStandard) == nil)
        #expect(Self.key("x" + String(repeating: "9", count: 20), .localizedStandard) == nil)
        #expect(Self.key(String(repeating: "9", count: 20), .localized) != nil)
        // No key: not printable ASCII, a run too long, not a localized comparison.
        #expect(Self.key("café", .localized) == nil)
        #expect(Self.key("tab\there", .localized) == nil)
        #expect(Self.key("\u{7F}", .localizedStandard) == nil)
        #expect(Self.key(String(repeating: "7", count: 251), .localizedStandard) == nil)
        #expect(Self.key(String(repeating: "0", count: 251) + "1", .localizedStandard) == nil)
        #expect(Self.key(String(repeating: "7", count: 19), .localizedStandard) != nil)
        #expect(Self.key(String(repeating: "0", count: 250) + "7", .localizedStandard) != nil)
        #expect(Self.key(String(repeating: "7", count: 251), .localized) != nil)
        #expect(Self.key("abc", .caseSensitive) == nil)
        // The longest keys: a run of one digit between every two characters (101 runs of three
        // bytes, 100 letters, the separator, 201 tie bytes).
        #expect(Self.key(String(repeating: "1a", count: 100) + "1", .localizedStandard)?.count == 605)
        #expect(order("0a0", "00a0", .localizedStandard) == -1)
        #expect(Self.key("", .localized) == [1])
    }

    /// English orders ASCII as the root collation; Czech (`ch` after `h`), Danish (`aa` after
    /// `z`, capitals first), Turkish (dotless `I`), Lithuanian (`y` beside `i`) and POSIX (byte
    /// order) do not, and must fail the probe so that their sorts keep calling Foundation.
    @Test(arguments: localized)
    func probesTellLocalesThatTailorASCII(comparison: Comparison) {
        func agrees(_ identifier: String) -> Bool {
            let locale = Locale(identifier: identifier)
            return ASCIICollationKey.probesAgree(comparison) { lhs, rhs in
                lhs.compare(rhs, options: Self.options(comparison), range: nil, locale: locale).rawValue
            }
        }
        #expect(agrees("en"))
        #expect(agrees("fr"))
        for tailored in ["cs", "da", "en_US_POSIX"] { #expect(!agrees(tailored), "\(tailored)") }
        if comparison == .localized { #expect(!agrees("tr")) }
        #expect(!agrees("lt"))
    }

    /// A column of strings and nils has keys (nils first ascending, last descending); one with a
    /// value that is neither, or a string without a key, has none and takes the general sort.
    @Test(arguments: localized)
    func columnsOfKeysTakeNilsAndRefuseOtherValues(comparison: Comparison) throws {
        try #require(ASCIICollationKey.agreesWithFoundation(comparison), "the current locale orders ASCII as root does")
        func rows(_ values: [StoreValue]) -> [FetchCandidate] {
            values.enumerated().map { FetchCandidate(key: Int64($0 + 1), values: [$1], version: 1) }
        }
        let column: [StoreValue] = [.string("b"), .null, .string("a"), .string("B"), .null]
        for ascending in [true, false] {
            let key = try #require(
                ColumnSortKey.collated(rows(column), slot: 0, ascending: ascending, comparison: comparison))
            let order = ColumnSort.order(column.count, keys: [key])
            let caseInsensitive = comparison == .localizedCaseInsensitive
            let expected = ascending ? [1, 4, 2, 0, 3] : (caseInsensitive ? [0, 3, 2, 1, 4] : [3, 0, 2, 1, 4])
            #expect(order == expected, "ascending: \(ascending)")
        }
        for other: StoreValue in [.int(3), .string("café"), .string("tab\there"), .date(Date())] {
            #expect(
                ColumnSortKey.collated(rows(column + [other]), slot: 0, ascending: true, comparison: comparison) == nil)
        }
        #expect(ColumnSortKey.collated(rows([.null, .null]), slot: 0, ascending: true, comparison: comparison) == nil)
        // The general sort keeps keys for the strings that have them and calls Foundation for the rest.
        let mixed = ASCIICollationKeys(
            count: 3, comparison: comparison, requiringKeys: false,
            value: { [.string("a"), .int(1), .string("é")][$0] })
        #expect(mixed?.hasKey == [true, false, false])
        #expect(mixed?.compare(0, 1) == nil)
    }

    /// Keys and Foundation in one fetch: a sort whose strings all have keys compares bytes; one
    /// with strings that have none compares the pairs that have keys by their keys and calls
    /// Foundation for the others; both give Foundation's order.
    @Test(arguments: localized, [true, false])
    func fetchesSortAsFoundationDoes(comparison: Comparison, ascending: Bool) throws {
        // In a locale that orders ASCII otherwise, no keys are made and Foundation sorts.
        let agrees = ASCIICollationKey.agreesWithFoundation(comparison)
        var generator = SeededGenerator(seed: 7)
        let names = (0..<1_200).map { _ in
            String(decoding: Self.randomText(&generator, maximumLength: 10), as: UTF8.self)
        }
        let interleaved = [
            "café", "Café", "cafe", "cafes", "é", "e", "f", "ß", "ss", "st", "Zoë", "tab\there", "日本", "file٣",
        ]
        for extra in [[], interleaved] {
            let (_, context) = try makeContext()
            let all = names + extra
            let rows = all.enumerated().map { FetchCandidate(key: Int64($0 + 1), values: [.string($1)], version: 1) }
            let keys = ColumnSortKey.collated(rows, slot: 0, ascending: ascending, comparison: comparison)
            #expect((keys != nil) == (extra.isEmpty && agrees), "keys for printable ASCII only")
            for name in all { makeFruit(context, name) }
            if Bool.random(using: &generator) { try context.save() }
            let descriptor = SortDescriptor(key: "name", ascending: ascending, comparison: comparison)
            let fetched = try context.fetch(FetchRequest<Fruit>(sortDescriptors: [descriptor])).map(\.name)
            let expected = all.indices.sorted { lhs, rhs in
                let order = SortOrdering.compare(.string(all[lhs]), .string(all[rhs]), comparison)
                return order != 0 ? (ascending ? order < 0 : order > 0) : lhs < rhs
            }.map { all[$0] }
            #expect(fetched.count == expected.count)
            let difference = fetched.indices.first { $0 >= expected.count || fetched[$0] != expected[$0] }
            #expect(difference == nil, "first differs at \(difference ?? 0): \(difference.map { fetched[$0] } ?? "")")
        }
    }
}
