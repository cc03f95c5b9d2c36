import Foundation
import Testing

@testable import ObjectGraph

/// The inline scan paths against the general ones: ``RowProgram`` against the compiled
/// predicate, ``ASCIIPrefix`` against `hasPrefix`, and ``EntityTable/keys(_:where:)`` against
/// a filter of the keys.
@Suite struct RowProgramTests {
    static let model: ManagedObjectModel = {
        let attributes = [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "price", type: .integer64, isOptional: true),
            AttributeDescription(name: "weight", type: .double, isOptional: true),
        ]
        return try! ManagedObjectModel(entities: [EntityDescription(name: "Item", attributes: attributes)])
    }()

    static let names: [String?] = [
        "a item 1", "a", "", "A item", "á", "a\u{301}", "a\u{301}bc", "ab\u{301}", "\u{212A}elvin", "Kelvin",
        "a\r\nb", "\r\n", "\r", "straße", "りんご", "emoji 🍎", "aa", "b item 26", nil, "a long name past sixteen bytes",
    ]
    static let prices: [Int64?] = [nil, .min, .min + 1, -1, 0, 99, 100, 150, 200, 201, .max - 1, .max]

    static var formats: [(String, [Any?])] {
        [
            ("price BETWEEN {100, 200} AND name BEGINSWITH 'a'", []),
            ("name BEGINSWITH 'a' AND price BETWEEN {100, 200}", []),
            ("price BETWEEN {200, 100}", []), ("price == 150", []), ("price != 150", []), ("price < 100", []),
            ("price <= 100", []), ("price > 200", []), ("price >= 200", []), ("price < %@", [Int64.min]),
            ("price > %@", [Int64.max]), ("price <= %@", [Int64.min]), ("price >= %@", [Int64.max]),
            ("price == 150.0", []), ("price > 99.5", []), ("name BEGINSWITH ''", []), ("name BEGINSWITH 'K'", []),
            ("name BEGINSWITH %@", ["\r"]), ("name BEGINSWITH %@", ["a\r"]), ("name BEGINSWITH 'ab'", []),
            ("name BEGINSWITH 'a item'", []), ("name BEGINSWITH 'a long name past sixteen'", []),
            ("name BEGINSWITH[c] 'a'", []), ("name BEGINSWITH[d] 'a'", []), ("name BEGINSWITH 'á'", []),
            ("name BEGINSWITH %@", ["a\u{301}"]), ("NOT name BEGINSWITH 'a'", []),
            ("name BEGINSWITH 'a' OR price == 0", []), ("price >= 0 AND weight > 1 AND name BEGINSWITH 'a'", []),
            ("TRUEPREDICATE", []), ("FALSEPREDICATE AND price == 5", []),
        ]
    }

    @Test func programMatchesExactlyTheRowsTheCompiledPredicateMatches() throws {
        let info = try #require(Self.model.info(named: "Item"))
        var checked = 0
        for (format, arguments) in Self.formats {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let compiled = try CompiledPredicate(predicate, entity: info, model: Self.model)
            #expect(compiled.isRowLocal, "\(format)")
            let program = RowProgram(compiled)
            for name in Self.names {
                for price in Self.prices {
                    let values: [StoreValue] = [
                        name.map { .string($0) } ?? .null, price.map { .int($0) } ?? .null, .double(2),
                    ]
                    let expected = values.withUnsafeBufferPointer(compiled.matchesRow)
                    #expect(values.withUnsafeBufferPointer(program.matches) == expected, "\(format) on \(values)")
                    checked += expected ? 1 : 0
                }
            }
        }
        #expect(checked > 300)
    }

    @Test func skippingATestLeavesTheOtherConjuncts() throws {
        let info = try #require(Self.model.info(named: "Item"))
        let compiled = try CompiledPredicate(
            FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH 'a'"), entity: info, model: Self.model)
        let range = try #require(compiled.root.slotConjuncts.first { $0.slot == 1 }).test
        let program = RowProgram(compiled, skipping: [range])
        let outside: [StoreValue] = [.string("a item"), .int(5), .null]
        let otherName: [StoreValue] = [.string("b item"), .int(150), .null]
        #expect(outside.withUnsafeBufferPointer(program.matches))
        #expect(!otherName.withUnsafeBufferPointer(program.matches))
        #expect(!outside.withUnsafeBufferPointer(compiled.matchesRow))
    }

    @Test func foldingStringTestsKeepTheirSignatureBesideThePrefixColumn() throws {
        let info = try #require(Self.model.info(named: "Item"))
        func program(_ format: String) throws -> RowProgram {
            RowProgram(try CompiledPredicate(FetchPredicate(format: format), entity: info, model: Self.model))
        }
        // Without folding, the prefix column decides alone; with `[c]` or `[d]` a row it cannot
        // decide (a non-ASCII byte) is tested on the signature column's folded value.
        for format in ["name BEGINSWITH 'je'", "name == 'je xyz'"] {
            let plain = try program(format)
            #expect(plain.columnTests.count == 1 && plain.signatureTests.isEmpty, "\(format)")
        }
        for format in ["name BEGINSWITH[d] 'je'", "name ==[c] 'je xyz'", "name ==[cd] 'je xyz'"] {
            let folding = try program(format)
            #expect(folding.columnTests.count == 1 && folding.signatureTests.count == 1, "\(format)")
        }
    }

    @Test func prefixBytesDecideOnlyWhatHasPrefixWouldDecide() throws {
        let prefixes = ["", "a", "a ", "K", "\r", "a\r", "ab", "0123456789abcdef"]
        var decided = 0
        for prefix in prefixes {
            let ascii = try #require(ASCIIPrefix(Array(prefix.utf8)))
            for name in Self.names.compactMap({ $0 }) + ["0123456789abcdef", "0123456789abcdefg", "0123456789abcde"] {
                guard let result = ascii.begins(.string(name)) else { continue }
                decided += 1
                #expect(
                    result == name.hasPrefix(prefix), "\(name.debugDescription) BEGINSWITH \(prefix.debugDescription)")
            }
            #expect(ascii.begins(.null) == nil)
            #expect(ascii.begins(.int(1)) == nil)
        }
        #expect(decided > 100)
        #expect(ASCIIPrefix(Array("0123456789abcdefg".utf8)) == nil)
        #expect(ASCIIPrefix(Array("é".utf8)) == nil)
        // Undecided by bytes: a mark after the prefix, a CR LF across its end, a non-ASCII start.
        #expect(ASCIIPrefix(Array("a".utf8))!.begins(.string("a\u{301}")) == nil)
        #expect(ASCIIPrefix(Array("\r".utf8))!.begins(.string("\r\n")) == nil)
        #expect(ASCIIPrefix(Array("K".utf8))!.begins(.string("\u{212A}elvin")) == nil)
    }

    /// A table of keys 1...1,100 (three chunks) without the multiples of 7, valued by key.
    static func table() -> EntityTable {
        var table = EntityTable()
        for key in Int64(1)...1_100 where key % 7 != 0 {
            table.set(EntityTable.Row(version: 1, values: [.int(key)]), forKey: key)
        }
        return table
    }

    @Test func candidateKeysKeepTheirOrderAndDropMissingRows() {
        let table = Self.table()
        let keys: [Int64] = [1_100, 3, 512, 513, 7, 1_024, 1_025, 0, -4, 2_000, 3, 1, 510, 511, 14, 999]
        var visited: [Int64] = []
        let kept = table.keys(keys[...]) { key, values in
            visited.append(key)
            #expect(values[0] == .int(key))
            return key != 999
        }
        #expect(kept == [1_100, 3, 512, 513, 1_024, 1_025, 1, 510])
        // Rows are read once each, in key order.
        #expect(visited == [1, 3, 510, 512, 513, 999, 1_024, 1_025, 1_100])
        #expect(table.keys([][...]) { _, _ in true }.isEmpty)
        #expect(EntityTable().keys([1, 2][...]) { _, _ in true }.isEmpty)
        #expect(table.keys(keys[2..<4]) { _, _ in true } == [512, 513])
    }

    @Test func candidateKeysAgreeWithAFilterOnRandomKeys() {
        let table = Self.table()
        var state: UInt64 = 9
        for _ in 0..<20 {
            var keys: [Int64] = []
            for _ in 0..<300 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                keys.append(Int64((state >> 33) % 1_300) - 50)
            }
            var unique: [Int64] = []
            var seen: Set<Int64> = []
            for key in keys where seen.insert(key).inserted { unique.append(key) }
            let expected = unique.filter { table[$0] != nil && $0 % 3 != 0 }
            #expect(table.keys(keys[...]) { key, _ in key % 3 != 0 } == expected)
        }
    }
}

@Suite struct SortedKeyIndexRangeTests {
    /// The bulk range copy against a filter of every entry: bounds inside, across and outside
    /// chunks, reversed and unbounded ranges, and limits just below and at the count.
    @Test func appendedKeysAreTheEntriesInTheRangeInIndexOrder() {
        var index = SortedKeyIndex<Int64>()
        for key in Int64(1)...3_000 { index.insert((key * 7) % 400, key: key) }
        var all: [(Int64, Int64)] = []
        index.forEach(from: nil) { value, key in
            all.append((value, key))
            return true
        }
        let bounds: [(Int64?, Int64?)] = [
            (100, 200), (nil, nil), (nil, 3), (398, nil), (200, 100), (500, nil), (nil, -1), (0, 0), (399, 399),
            (17, 311),
        ]
        for (lower, upper) in bounds {
            let expected = all.filter { (lower ?? .min) <= $0.0 && $0.0 <= (upper ?? .max) }.map(\.1)
            var keys: [Int64] = [-9]
            #expect(index.appendKeys(from: lower, through: upper, into: &keys, limit: expected.count + 1))
            #expect(keys == [-9] + expected, "\(String(describing: lower))...\(String(describing: upper))")
            var limited: [Int64] = []
            #expect(index.appendKeys(from: lower, through: upper, into: &limited, limit: expected.count))
            if !expected.isEmpty {
                var over: [Int64] = []
                #expect(!index.appendKeys(from: lower, through: upper, into: &over, limit: expected.count - 1))
            }
        }
        var empty: [Int64] = []
        #expect(SortedKeyIndex<Int64>().appendKeys(from: nil, through: nil, into: &empty, limit: 0))
        #expect(empty.isEmpty)
    }

    /// A prefix's candidates (the end of its block found by binary search) against
    /// `hasPrefix`-style NFC matching of every entry: blocks inside one chunk and across several,
    /// ASCII and not, composed and decomposed, and limits.
    @Test func prefixCandidatesAreTheStringsBeginningWithThePrefix() throws {
        let stems = ["a", "ab", "b", "á", "a\u{301}", "e\u{301}", "é", "Ä", "z", "", "ß", "ｚ", "🍎"]
        var index = SortedKeyIndex<String>()
        var entries: [(String, Int64)] = []
        for key in Int64(1)...4_000 {
            let name = "\(stems[Int(key) % stems.count])\(key % 3 == 0 ? " " : "")\(key)"
            index.insert(name, key: key)
            entries.append((name, key))
        }
        let attribute = AttributeIndex.string(slot: 0, index)
        for prefix in ["a", "ab", "a1", "á", "a\u{301}", "e\u{301}", "é", "Ä", "z", "ｚ", "🍎", "", "q", "b3", "ß 1"] {
            let composed = Array(prefix.precomposedStringWithCanonicalMapping.unicodeScalars)
            let expected = Set(
                entries.filter { $0.0.precomposedStringWithCanonicalMapping.unicodeScalars.starts(with: composed) }
                    .map(\.1))
            let keys = try #require(attribute.candidates(for: .prefix(prefix), limit: .max), "\(prefix)")
            #expect(Set(keys) == expected, "\(prefix)")
            #expect(keys.count == expected.count, "\(prefix)")
            if !expected.isEmpty {
                #expect(attribute.candidates(for: .prefix(prefix), limit: expected.count - 1) == nil, "\(prefix)")
                #expect(attribute.candidates(for: .prefix(prefix), limit: expected.count)?.count == expected.count)
            }
        }
    }
}
