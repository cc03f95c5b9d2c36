/// A case-sensitive `BEGINSWITH` or `==` with an ASCII string, as a prefix column tests it.
///
/// A word excludes a row when the first byte where it differs from the constant's, within the
/// compared bytes, is ASCII: the bytes before it are the constant's own (ASCII), so the value
/// has another character there or ends there (a zero byte), and neither a prefix test nor an
/// equality (byte for byte, or Swift's canonical equivalence: ASCII characters are their own
/// canonical form and combine with nothing before them) can hold. Equality also compares the
/// byte after the constant with zero: any other byte there means a longer value. A non-ASCII
/// byte at the difference (which may compose with what comes before), no difference, or a row
/// without a string leaves the row to its full test.
struct StringColumnTest {
    /// The constant's first bytes, little-endian, as a word holds them.
    private let bytes: StringPrefixColumn.Word
    /// The bytes of a word compared with them.
    private let mask: StringPrefixColumn.Word
    /// The constant's length in bytes.
    private let count: Int

    private init(_ constant: [UInt8], compared: Int) {
        let width = MemoryLayout<StringPrefixColumn.Word>.size
        var bytes: StringPrefixColumn.Word = 0
        for (position, byte) in constant.prefix(width).enumerated() {
            bytes |= StringPrefixColumn.Word(byte) << StringPrefixColumn.Word(position * 8)
        }
        self.bytes = bytes
        mask = compared >= width ? .max : (1 << StringPrefixColumn.Word(compared * 8)) - 1
        count = constant.count
    }

    /// `BEGINSWITH` an ASCII `prefix`.
    init(prefix: [UInt8]) { self.init(prefix, compared: prefix.count) }

    /// `==` an ASCII `constant`.
    init(equalTo constant: [UInt8]) { self.init(constant, compared: constant.count + 1) }

    /// Whether a row whose column word is `packed` certainly fails the test.
    @inline(__always)
    func excludes(_ packed: StringPrefixColumn.Word) -> Bool {
        guard packed != StringPrefixColumn.notAString else { return false }
        let difference = (packed ^ bytes) & mask
        guard difference != 0 else { return false }
        let position = difference.trailingZeroBitCount >> 3
        return position >= count || (packed >> StringPrefixColumn.Word(position * 8)) & 0x80 == 0
    }
}

/// A conjunct a scan tests on a prefix column before it reads a row: the rows whose word the
/// test excludes do not match.
struct PrefixExclusion {
    let column: StringPrefixColumn
    let test: StringColumnTest

    /// Whether the row at `offset` of chunk `chunk` fails the conjunct by its word.
    @inline(__always)
    func excludes(chunk: Int, offset: Int) -> Bool {
        let chunks = column.chunks
        guard chunk < chunks.count, offset < chunks[chunk].count else { return false }
        return test.excludes(chunks[chunk][offset])
    }

    /// The keys of `keys`, in their order, whose rows no exclusion rejects.
    static func survivors(of keys: ArraySlice<Int64>, by exclusions: [PrefixExclusion]) -> [Int64] {
        var survivors: [Int64] = []
        for key in keys where key >= 1 {
            let index = Int(key - 1)
            let chunk = index >> EntityTable.chunkShift
            let offset = index & (EntityTable.chunkSize - 1)
            if !exclusions.contains(where: { $0.excludes(chunk: chunk, offset: offset) }) { survivors.append(key) }
        }
        return survivors
    }

    /// Removes from `offsets[0..<count]` (rows of chunk `chunk`) those that an exclusion rejects,
    /// keeping the others in order; returns how many are left.
    @inline(__always)
    static func filter(
        _ offsets: UnsafeMutableBufferPointer<Int>, count: Int, chunk: Int, by exclusions: [PrefixExclusion]
    ) -> Int {
        var count = count
        for exclusion in exclusions {
            count = exclusion.column.withWords(ofChunk: chunk) { words in
                var kept = 0
                for position in 0..<count {
                    let offset = offsets[position]
                    if offset >= words.count || !exclusion.test.excludes(words[offset]) {
                        offsets[kept] = offset
                        kept += 1
                    }
                }
                return kept
            }
        }
        return count
    }
}

extension EntityTable {
    /// A scan's exclusions for the column tests of `program`: the prefix columns of their
    /// attributes, built now if the table has none and the scan tests at least
    /// ``StringPrefixColumn/rowsWorthBuilding`` rows.
    func prefixExclusions(for program: RowProgram, testingRows rows: Int) -> [PrefixExclusion] {
        program.columnTests.compactMap { slot, test in
            prefixColumns.column(slot: slot, of: self, build: rows >= StringPrefixColumn.rowsWorthBuilding)
                .map { PrefixExclusion(column: $0, test: test) }
        }
    }
}
