import Synchronization

/// The first eight UTF-8 bytes of one string attribute in every row of a table, side by side,
/// so that a scan can reject the rows whose value cannot begin with a prefix, or equal a
/// string, without reading them.
///
/// A scan that tests `name BEGINSWITH 'a'` on the rows an index on price selected reads each
/// row's values array: two or three dependent cache misses a row, scattered over the heap. A
/// word of this column is one load from a contiguous array, so a scan reads a few lines of the
/// column instead and only the rows the prefix leaves in (see ``StringColumnTest``).
///
/// Words are grouped in chunks that mirror the table's, so that a change to one row copies one
/// chunk of the column. Byte *i* of a word (from the low end) is byte *i* of the string's UTF-8,
/// zero past its end; a row without a string (no row, nil, another type) is ``notAString``,
/// which no valid UTF-8 starts with.
struct StringPrefixColumn: Sendable {
    /// The word of a row without a string value.
    static let notAString = Word.max

    /// A row's word. Eight bytes tell most prefixes apart (four would not reject one row of
    /// `"item 1…"` for `"item 12"`); four measured only 4% faster on the issue 4 query.
    typealias Word = UInt64

    /// The fewest rows a scan must test to build a column it lacks: building reads every row of
    /// the table once, and a column costs 8 bytes a row.
    static let rowsWorthBuilding = 2_048

    /// The attribute's slot in the rows.
    let slot: Int
    /// Word `offset` of chunk `c` is the row of key `c << EntityTable.chunkShift + offset + 1`;
    /// each chunk holds at least as many words as the table's chunk holds rows.
    private(set) var chunks: [[Word]]

    /// The column of the attribute at `slot` for every row of `table`.
    init(slot: Int, table: EntityTable) {
        self.slot = slot
        chunks = table.chunks.map { chunk in
            chunk?.withRows { rows in
                (0..<rows.count).map { offset in
                    guard let values = rows.values(at: offset), slot < values.count else { return Self.notAString }
                    return Self.word(values[slot])
                }
            } ?? []
        }
    }

    /// The word of `value`: its first eight UTF-8 bytes if it is a string.
    static func word(_ value: borrowing StoreValue) -> Word {
        switch value {
        case .string(let text): word(utf8: text)
        default: notAString
        }
    }

    private static func word(utf8 text: borrowing String) -> Word {
        let width = MemoryLayout<Word>.size
        let contiguous = text.utf8.withContiguousStorageIfAvailable { bytes in
            var word: Word = 0
            for position in 0..<Swift.min(width, bytes.count) {
                word |= Word(bytes[position]) << Word(position * 8)
            }
            return word
        }
        if let contiguous { return contiguous }
        var word: Word = 0
        for (position, byte) in text.utf8.prefix(width).enumerated() {
            word |= Word(byte) << Word(position * 8)
        }
        return word
    }

    /// Keeps the column current when the row of `key` becomes `values` (`nil`: removed).
    mutating func update(key: Int64, to values: [StoreValue]?) {
        let index = Int(key - 1)
        let chunk = index >> EntityTable.chunkShift
        let offset = index & (EntityTable.chunkSize - 1)
        let word = values.map { slot < $0.count ? Self.word($0[slot]) : Self.notAString } ?? Self.notAString
        if chunk >= chunks.count {
            guard word != Self.notAString else { return }
            chunks.append(contentsOf: repeatElement([], count: chunk - chunks.count + 1))
        }
        if offset >= chunks[chunk].count {
            guard word != Self.notAString else { return }
            chunks[chunk].append(contentsOf: repeatElement(Self.notAString, count: offset - chunks[chunk].count + 1))
        }
        chunks[chunk][offset] = word
    }

    /// The word of the row at `offset` of chunk `chunk` (``notAString`` past the column's end).
    @inline(__always)
    func word(chunk: Int, offset: Int) -> Word {
        guard chunk < chunks.count, offset < chunks[chunk].count else { return Self.notAString }
        return chunks[chunk][offset]
    }

    /// Calls `body` with the words of chunk `chunk` (empty past the column's end).
    @inline(__always)
    func withWords<Result>(ofChunk chunk: Int, _ body: (UnsafeBufferPointer<Word>) -> Result) -> Result {
        guard chunk < chunks.count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return chunks[chunk].withUnsafeBufferPointer(body)
    }
}

extension StringPrefixColumn {
    /// The prefix columns of one table value and of the copies that share it, built on first
    /// use.
    ///
    /// A fetch builds a column on the table of its snapshot, which the coordinator's current
    /// snapshot shares until the next commit, so later fetches find it. A table that changes
    /// while it shares its cache detaches first (``EntityTable/set(_:forKey:)``), so a column
    /// always describes the rows of the tables that hold it.
    final class Cache: Sendable {
        private let columns: Locked<[StringPrefixColumn]>
        /// How many columns have been built: read without the lock, so that a table without
        /// columns changes at no extra cost.
        private let builtCount: Atomic<Int>

        init(_ columns: [StringPrefixColumn] = []) {
            self.columns = Locked(columns)
            builtCount = Atomic(columns.count)
        }

        /// Whether no column has been built.
        var isEmpty: Bool { builtCount.load(ordering: .acquiring) == 0 }

        /// A cache of its own with the same columns, for a table about to change.
        func detached() -> Cache {
            isEmpty ? Cache() : Cache(columns.withLock { $0 })
        }

        /// The column of `slot`, built from `table` (whose rows the cache describes) if it has
        /// none and `build` is true.
        func column(slot: Int, of table: EntityTable, build: Bool) -> StringPrefixColumn? {
            if !build, isEmpty { return nil }
            return columns.withLock { columns in
                if let column = columns.first(where: { $0.slot == slot }) { return column }
                guard build else { return nil }
                let column = StringPrefixColumn(slot: slot, table: table)
                columns.append(column)
                builtCount.add(1, ordering: .releasing)
                return column
            }
        }

        /// Keeps every column current when the row of `key` becomes `values`; only for a cache
        /// no other table shares.
        func update(key: Int64, to values: [StoreValue]?) {
            guard !isEmpty else { return }
            columns.withLock { columns in
                for position in columns.indices { columns[position].update(key: key, to: values) }
            }
        }
    }
}
