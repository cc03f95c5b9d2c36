/// A `BEGINSWITH` or `==` with a string that is ASCII once folded, as a prefix column tests it.
///
/// A word excludes a row when the first byte where it differs from the constant's, within the
/// compared bytes (ASCII letters lower-cased first for `[c]`), is ASCII. The bytes before it are
/// then the constant's own, all ASCII, so the value has another character there or ends there
/// (a zero byte): ASCII characters are their own canonical form, fold only to themselves (or
/// their lower case), and combine with nothing before them, so neither a prefix test nor an
/// equality can hold, with or without `[c]` and `[d]`. Equality also compares the byte after
/// the constant with zero: an ASCII byte there means a longer value. A non-ASCII byte at the
/// difference (a mark that may compose with, or fold away from, what comes before), no
/// difference, or a row without a string leaves the row to its full test.
struct StringColumnTest {
    /// The constant's first bytes (folded), little-endian, as a word holds them.
    private let bytes: StringPrefixColumn.Word
    /// The bytes of a word compared with them.
    private let mask: StringPrefixColumn.Word
    /// Whether ASCII letters of a word are lower-cased before the comparison (`[c]`).
    private let lowercases: Bool

    private init(_ constant: [UInt8], compared: Int, lowercases: Bool) {
        let width = MemoryLayout<StringPrefixColumn.Word>.size
        var bytes: StringPrefixColumn.Word = 0
        for (position, byte) in constant.prefix(width).enumerated() {
            bytes |= StringPrefixColumn.Word(byte) << StringPrefixColumn.Word(position * 8)
        }
        self.bytes = bytes
        mask = compared >= width ? .max : (1 << StringPrefixColumn.Word(compared * 8)) - 1
        self.lowercases = lowercases
    }

    /// `BEGINSWITH` a `prefix` whose folded bytes are ASCII (lower case for `[c]`).
    init(prefix: [UInt8], caseInsensitive: Bool = false) {
        self.init(prefix, compared: prefix.count, lowercases: caseInsensitive)
    }

    /// `==` a `constant` whose folded bytes are ASCII (lower case for `[c]`).
    init(equalTo constant: [UInt8], caseInsensitive: Bool = false) {
        self.init(constant, compared: constant.count + 1, lowercases: caseInsensitive)
    }

    /// Whether a row whose column word is `packed` certainly fails the test.
    @inline(__always)
    func excludes(_ packed: StringPrefixColumn.Word) -> Bool {
        guard packed != StringPrefixColumn.notAString else { return false }
        let compared = lowercases ? Self.lowercasingASCII(packed) : packed
        let difference = (compared ^ bytes) & mask
        guard difference != 0 else { return false }
        let shift = StringPrefixColumn.Word(difference.trailingZeroBitCount & ~7)
        return (packed >> shift) & 0x80 == 0
    }

    /// `word` with the ASCII capital letters of its bytes lower-cased (other bytes unchanged),
    /// eight at a time: for a byte *x* below 0x80, *x* + 0x3F has its top bit set when *x* is
    /// at least "A", and *x* + 0x25 when it is past "Z".
    @inline(__always)
    static func lowercasingASCII(_ word: StringPrefixColumn.Word) -> StringPrefixColumn.Word {
        let high: StringPrefixColumn.Word = 0x8080_8080_8080_8080
        let low = word & ~high
        let atLeastA = low &+ 0x3F3F_3F3F_3F3F_3F3F
        let pastZ = low &+ 0x2525_2525_2525_2525
        let capitals = atLeastA & ~pastZ & high & ~word
        return word | (capitals >> 2)
    }
}

/// A conjunct a scan tests on a prefix column (or a signature column) before it reads a row:
/// the rows whose word the test excludes (or whose signature lacks the constant's) do not match.
///
/// A signature column that keeps a row's folded value also settles the conjunct for that row
/// either way; so does a signature that lacks the constant's bits for a negated conjunct. A row
/// the column settles as holding is marked with the conjunct's bit (`holdsBit`), so that the
/// row's full test skips the conjunct instead of folding the value again. A conjunct that is a
/// disjunction of such tests (`name CONTAINS[c] 'x' OR name BEGINSWITH 'q'`) fails where every
/// alternative fails and holds where one holds.
struct PrefixExclusion {
    /// A string test as a signature column settles it: `matchesFolded` tests a value folded as
    /// the column folds.
    struct SignatureTest {
        let column: StringSignatureColumn
        let required: StringSignature
        /// `nil`: the folded values settle nothing.
        let matchesFolded: ((String) -> Bool)?
        /// Whether the conjunct is the negation of that test (`NOT name CONTAINS[c] 'x'`).
        let negated: Bool

        /// Settles `matchesFolded` (or its negation, if `negated`) by `column`: a row whose
        /// signature lacks a character or pair of `required` fails the test, and a row whose
        /// folded value the column keeps fails or passes as `matchesFolded` says.
        init(
            column: StringSignatureColumn, required: StringSignature, negated: Bool = false,
            matchesFolded: ((String) -> Bool)?
        ) {
            self.column = column
            self.required = required
            self.matchesFolded = matchesFolded
            self.negated = negated
        }
    }

    private enum Kind {
        case prefix(StringPrefixColumn, StringColumnTest)
        case signature(SignatureTest, holdsBit: UInt64)
        case anyOf([SignatureTest], holdsBit: UInt64)
    }

    private let kind: Kind

    init(column: StringPrefixColumn, test: StringColumnTest) { kind = .prefix(column, test) }

    /// Excludes the rows every alternative settles as failing; rows one settles as holding get
    /// `holdsBit` in their mask (0: no mask).
    init(anyOf alternatives: [SignatureTest], holdsBit: UInt64 = 0) {
        kind =
            alternatives.count == 1
            ? .signature(alternatives[0], holdsBit: holdsBit) : .anyOf(alternatives, holdsBit: holdsBit)
    }

    /// Whether the exclusion marks rows whose conjunct it settled as holding.
    var marksHoldingRows: Bool {
        switch kind {
        case .prefix: false
        case .signature(_, let holdsBit), .anyOf(_, let holdsBit): holdsBit != 0
        }
    }

    /// Whether the row at `offset` of chunk `chunk` fails the conjunct by its word.
    @inline(__always)
    func excludes(chunk: Int, offset: Int) -> Bool {
        switch kind {
        case .prefix(let column, let test): return test.excludes(column.word(chunk: chunk, offset: offset))
        case .signature(let test, _):
            return test.settles(chunk: chunk, offset: offset, signatures: nil) == false
        case .anyOf(let alternatives, _):
            return Self.settles(alternatives, chunk: chunk, offset: offset) == false
        }
    }

    /// Whether one of `alternatives` holds for the row at `offset` of chunk `chunk`, when their
    /// columns settle it: `true` when one holds, `false` when every one fails.
    @inline(__always)
    private static func settles(_ alternatives: [SignatureTest], chunk: Int, offset: Int) -> Bool? {
        var unsettled = false
        for alternative in alternatives {
            switch alternative.settles(chunk: chunk, offset: offset, signatures: nil) {
            case true: return true
            case false: continue
            case nil: unsettled = true
            }
        }
        return unsettled ? nil : false
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
    /// keeping the others in order; returns how many are left. `holding[offset]` (if given, zero
    /// for the listed offsets) gains the bits of the conjuncts the columns settled as holding.
    @inline(__always)
    static func filter(
        _ offsets: UnsafeMutableBufferPointer<Int>, count: Int, chunk: Int, by exclusions: [PrefixExclusion],
        holding: UnsafeMutableBufferPointer<UInt64>? = nil
    ) -> Int {
        var count = count
        for exclusion in exclusions {
            switch exclusion.kind {
            case .prefix(let column, let test):
                count = column.withWords(ofChunk: chunk) { words in
                    var kept = 0
                    for position in 0..<count {
                        let offset = offsets[position]
                        if offset >= words.count || !test.excludes(words[offset]) {
                            offsets[kept] = offset
                            kept += 1
                        }
                    }
                    return kept
                }
            case .anyOf(let alternatives, let holdsBit):
                var kept = 0
                for position in 0..<count {
                    let offset = offsets[position]
                    switch settles(alternatives, chunk: chunk, offset: offset) {
                    case false: continue
                    case true: holding?[offset] |= holdsBit
                    case nil: break
                    }
                    offsets[kept] = offset
                    kept += 1
                }
                count = kept
            case .signature(let test, let holdsBit):
                count = test.column.withSignatures(ofChunk: chunk) { signatures in
                    var kept = 0
                    for position in 0..<count {
                        let offset = offsets[position]
                        switch test.settles(chunk: chunk, offset: offset, signatures: signatures) {
                        case false: continue
                        case true: holding?[offset] |= holdsBit
                        case nil: break
                        }
                        offsets[kept] = offset
                        kept += 1
                    }
                    return kept
                }
            }
        }
        return count
    }
}

extension PrefixExclusion.SignatureTest {
    /// Whether the conjunct holds for the row at `offset` of chunk `chunk`, when the column
    /// settles it; `nil` when only the row's full test can. `signatures`: the chunk's, if read.
    @inline(__always)
    func settles(chunk: Int, offset: Int, signatures: UnsafeBufferPointer<StringSignature>?) -> Bool? {
        let signature =
            signatures.map { offset < $0.count ? $0[offset] : .notAString }
            ?? column.signature(chunk: chunk, offset: offset)
        if signature.lacks(required) { return negated }
        guard let matchesFolded, let folded = column.folded(chunk: chunk, offset: offset) else { return nil }
        return matchesFolded(folded) != negated
    }
}

extension EntityTable {
    /// A scan's exclusions for `columnTests` (a row program's string tests by slot): the prefix
    /// columns of their attributes, built now if the table has none and the scan tests at least
    /// ``StringPrefixColumn/rowsWorthBuilding`` rows.
    func prefixExclusions(
        for columnTests: [(slot: Int, test: StringColumnTest)], testingRows rows: Int
    ) -> [PrefixExclusion] {
        columnTests.compactMap { slot, test in
            prefixColumns.column(slot: slot, of: self, build: rows >= StringPrefixColumn.rowsWorthBuilding)
                .map { PrefixExclusion(column: $0, test: test) }
        }
    }
}
