import Foundation
import Testing

@testable import ObjectGraph

/// ``StringPrefixColumn``: a word may exclude a row only where the row's own test would reject
/// it, and a column always describes the rows of the table values that hold it.
@Suite struct StringPrefixColumnTests {
    /// Values whose first bytes are tricky: non-ASCII, combining marks after ASCII, CR LF across
    /// a prefix's end, NUL bytes, strings shorter and longer than a word, and non-strings.
    static let values: [StoreValue] = [
        "", "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "b", "A", "a\u{301}", "ab\u{301}c",
        "e\u{301}clair", "éclair", "caf", "cafe\u{301}", "café", "w1\r\nx", "w1\r", "\u{212A}elvin", "Kelvin",
        "a\0", "\0", "a\0b", "りんご", "🍎 apple", "abcdefg\u{301}", "abcdefgh\u{301}", "ABCDEFGHIJ",
        .null, .int(97), .data(Data("abc".utf8)), .string(String(repeating: "a", count: 1_000)),
    ]

    static let prefixes = [
        "", "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi", "b", "e", "caf", "cafe", "w1", "w1\r", "K", "a\0",
        "\0", "abcdefghij", "z",
    ]

    @Test func aWordExcludesOnlyValuesThatDoNotBeginWithThePrefix() throws {
        var excluded = 0
        for text in Self.prefixes {
            let prefix = try #require(ASCIIPrefix(Array(text.utf8)))
            let test = StringColumnTest(prefix: Array(text.utf8))
            for value in Self.values {
                guard test.excludes(StringPrefixColumn.word(value)) else { continue }
                excluded += 1
                #expect(prefix.begins(value) != true, "\(text.debugDescription) / \(value)")
                if case .string(let string) = value {
                    #expect(!string.hasPrefix(text), "\(text.debugDescription) / \(string.debugDescription)")
                }
            }
        }
        // The column must also decide: most pairs above are plain mismatches.
        #expect(excluded > 300)
    }

    @Test func aWordExcludesOnlyValuesThatDoNotEqualTheConstant() {
        var excluded = 0
        let constants = Self.prefixes + ["abcdefgh", "Kelvin", "w1\r\nx", "cafe", "a\0b"]
        for text in constants {
            let test = StringColumnTest(equalTo: Array(text.utf8))
            let prepared = PreparedString(text, options: [])
            for value in Self.values + constants.map(StoreValue.string) {
                guard test.excludes(StringPrefixColumn.word(value)) else {
                    // A value that equals the constant is never excluded.
                    continue
                }
                excluded += 1
                if case .string(let string) = value {
                    #expect(string != text, "\(text.debugDescription) / \(string.debugDescription)")
                    #expect(!prepared.matches(string, .equal), "\(text.debugDescription) / \(string.debugDescription)")
                }
            }
            #expect(!test.excludes(StringPrefixColumn.word(.string(text))), "\(text.debugDescription)")
        }
        #expect(excluded > 500)
    }

    /// Values for `[c]` and `[d]`: capitals, letters that fold to ASCII only with the options,
    /// and marks that fold away.
    static let foldedValues: [StoreValue] =
        values + [
            "ABC", "Abc", "aBC", "ABCDEFGHIJ", "KELVIN", "kelvin", "\u{212A}ELVIN", "Éclair", "ÉCLAIR",
            "E\u{301}CLAIR", "e\u{301}clair", "STRASSE", "straße", "CAFE\u{301}", "Café", "W1", "w1", "W1\r\nX", "@[`{",
            "ÄRGER", "Ärger", "ärger", "arger", "ﬁne", "FINE",
        ]

    @Test func capitalsAreLowerCasedEightBytesAtATime() {
        for byte in 0...255 {
            for lane in 0..<8 {
                let word = StringPrefixColumn.Word(byte) << StringPrefixColumn.Word(lane * 8)
                let expected = (0x41...0x5A).contains(byte) ? word | (0x20 << StringPrefixColumn.Word(lane * 8)) : word
                #expect(StringColumnTest.lowercasingASCII(word) == expected, "byte \(byte) lane \(lane)")
            }
        }
        var random = IndexedPair.Generator(seed: 11)
        for _ in 0..<2_000 {
            let bytes = (0..<8).map { _ in UInt8(random.next(256)) }
            let word = bytes.enumerated().reduce(StringPrefixColumn.Word(0)) {
                $0 | StringPrefixColumn.Word($1.element) << StringPrefixColumn.Word($1.offset * 8)
            }
            let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }.enumerated().reduce(
                StringPrefixColumn.Word(0)
            ) { $0 | StringPrefixColumn.Word($1.element) << StringPrefixColumn.Word($1.offset * 8) }
            #expect(StringColumnTest.lowercasingASCII(word) == lowered)
        }
    }

    /// With `[c]`, `[d]` and `[cd]` (and none): a word excludes only values the folded
    /// comparison rejects.
    @Test(arguments: [
        ObjectGraph.PredicateExpression.Options(), .caseInsensitive, .diacriticInsensitive,
        [.caseInsensitive, .diacriticInsensitive],
    ])
    func foldedComparisonsExcludeOnlyWhatTheyReject(options: ObjectGraph.PredicateExpression.Options) {
        var excluded = 0
        let constants =
            Self.prefixes + ["ABC", "Kelvin", "kel", "É", "éc", "ECL", "cafe", "Café", "STRASSE", "ärger", "fi"]
        let caseInsensitive = options.contains(.caseInsensitive)
        for text in constants {
            let prepared = PreparedString(text, options: options)
            guard let bytes = prepared.ascii else { continue }
            let prefix = StringColumnTest(prefix: bytes, caseInsensitive: caseInsensitive)
            let equal = StringColumnTest(equalTo: bytes, caseInsensitive: caseInsensitive)
            for value in Self.foldedValues {
                guard case .string(let string) = value else { continue }
                let word = StringPrefixColumn.word(value)
                if prefix.excludes(word) {
                    excluded += 1
                    #expect(!prepared.matches(string, .prefix), "\(text.debugDescription) / \(string.debugDescription)")
                }
                if equal.excludes(word) {
                    excluded += 1
                    #expect(!prepared.matches(string, .equal), "\(text.debugDescription) / \(string.debugDescription)")
                }
            }
        }
        #expect(excluded > 1_000)
    }

    @Test func wordsHoldTheFirstEightBytesOrMarkNonStrings() {
        #expect(StringPrefixColumn.word("") == 0)
        #expect(StringPrefixColumn.word("ab") == 0x6261)
        #expect(StringPrefixColumn.word("abcdefghij") == 0x6867_6665_6463_6261)
        for value: StoreValue in [.null, .int(0), .bool(true), .data(Data())] {
            #expect(StringPrefixColumn.word(value) == StringPrefixColumn.notAString)
            #expect(!StringColumnTest(prefix: Array("a".utf8)).excludes(StringPrefixColumn.word(value)))
            #expect(!StringColumnTest(equalTo: []).excludes(StringPrefixColumn.word(value)))
        }
    }

    static func table(rows: Int) -> EntityTable {
        var table = EntityTable()
        for key in 1...Int64(rows) where key % 7 != 3 {
            let name: StoreValue = key % 11 == 0 ? .null : .string("\(["a", "b", "é"][Int(key % 3)])\(key)")
            table.set(EntityTable.Row(version: 1, values: [.int(key), name]), forKey: key)
        }
        return table
    }

    /// Every word of `table`'s column of slot 1 is the word of the row's value there.
    static func expectCurrent(_ table: EntityTable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let column = try #require(table.prefixColumns.column(slot: 1, of: table, build: false))
        let fresh = StringPrefixColumn(slot: 1, table: table)
        for chunk in 0..<max(column.chunks.count, fresh.chunks.count) {
            let rows = chunk < table.chunks.count ? table.chunks[chunk]?.end ?? 0 : 0
            for offset in 0..<rows {
                let word = column.withWords(ofChunk: chunk) { offset < $0.count ? $0[offset] : nil }
                #expect(
                    word == fresh.chunks[chunk][offset], "chunk \(chunk) offset \(offset)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aChangedCopyDetachesAndKeepsItsColumnCurrent() throws {
        let original = Self.table(rows: 1_300)
        #expect(original.prefixColumns.column(slot: 1, of: original, build: false) == nil)
        _ = original.prefixColumns.column(slot: 1, of: original, build: true)
        try Self.expectCurrent(original)

        var changed = original
        #expect(changed.prefixColumns === original.prefixColumns)
        changed.set(EntityTable.Row(version: 2, values: [.int(1), "zz changed"]), forKey: 1)
        changed.set(nil, forKey: 2)
        changed.set(EntityTable.Row(version: 2, values: [.int(3), "new in a hole"]), forKey: 3)
        changed.set(EntityTable.Row(version: 2, values: [.int(4), .null]), forKey: 4)
        changed.set(EntityTable.Row(version: 1, values: [.int(5), "past the end"]), forKey: 2_100)
        for key in Int64(513)...1_024 { changed.set(nil, forKey: key) }
        #expect(changed.prefixColumns !== original.prefixColumns)
        try Self.expectCurrent(changed)
        // The original's column still describes the original's rows.
        try Self.expectCurrent(original)
        #expect(original[1]?.values[1] == "b1")

        let emptied = {
            var table = changed; table.removeAll(); return table
        }()
        #expect(emptied.prefixColumns.column(slot: 1, of: emptied, build: false) == nil)
    }

    @Test func aColumnIsBuiltOncePerCacheAndOnlyWhenAsked() throws {
        let table = Self.table(rows: 600)
        #expect(table.prefixColumns.isEmpty)
        #expect(table.prefixColumns.column(slot: 1, of: table, build: false) == nil)
        let first = try #require(table.prefixColumns.column(slot: 1, of: table, build: true))
        #expect(!first.chunks.isEmpty)
        // Asked again (here with other rows), the cache returns the column it built rather than
        // building one from the rows it is given.
        let second = table.prefixColumns.column(slot: 1, of: EntityTable(), build: true)
        #expect(second?.chunks == first.chunks)
        #expect(!table.prefixColumns.isEmpty)
        #expect(table.prefixColumns.column(slot: 0, of: table, build: false) == nil)
    }

    /// Index candidates filtered with exclusions, whether few keys are left (read in their
    /// order) or many (read in key order): the same keys, in the same order, as without.
    @Test func candidatesFilteredWithExclusionsAreTheSameAsWithout() throws {
        let table = Self.table(rows: 3_000)
        let column = try #require(table.prefixColumns.column(slot: 1, of: table, build: true))
        var random = IndexedPair.Generator(seed: 3)
        let few = (0..<50).map { _ in Int64(random.next(3_200)) } + [5, 5, 6, 6, 0, -1, 9_999]
        let many = (0..<2_000).map { _ in Int64(random.next(3_200)) } + (1...3_000).reversed()
        var compared = 0
        for text in ["a", "b", "a1", "b2", "zz", ""] {
            let test = StringColumnTest(prefix: Array(text.utf8))
            let include: (Int64, UnsafeBufferPointer<StoreValue>) -> Bool = { _, values in
                if case .string(let name) = values[1] { name.hasPrefix(text) } else { false }
            }
            for keys in [few, many] {
                let expected = table.keys(keys[...], where: include)
                let excluding = [PrefixExclusion(column: column, test: test)]
                #expect(table.keys(keys[...], excluding: excluding, where: include) == expected, "\(text)")
                compared += expected.count
            }
        }
        #expect(compared > 1_000)
    }
}
