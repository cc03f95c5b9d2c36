import Synchronization

/// Which characters, and which pairs of neighbouring characters, one string holds, as two sets
/// of 64 hashed bits: a row whose signature lacks a bit of a constant's cannot contain it.
///
/// The query engine makes signatures (``StringSignatureColumn`` only stores them): over the
/// canonical decomposition of the string, folded as a comparison asks, so that strings a
/// comparison treats as equal have the same bits.
struct StringSignature: Sendable, Equatable {
    /// One bit for each Unicode scalar of the decomposed string (hashed).
    var scalars: UInt64
    /// One bit for each pair of neighbouring scalars that are both starters (hashed).
    var pairs: UInt64

    /// The signature of a row without a string: it lacks nothing, so it never excludes a row.
    static let notAString = StringSignature(scalars: .max, pairs: .max)

    /// Whether a string with this signature lacks a character or pair of `required`.
    @inline(__always)
    func lacks(_ required: StringSignature) -> Bool {
        (required.scalars & ~scalars) | (required.pairs & ~pairs) != 0
    }
}

/// The ``StringSignature`` of one string attribute in every row of a table, folded one way (a
/// comparison's `[c]`/`[d]` options), side by side: a scan tests the rows' signatures before it
/// reads the rows, and reads only those that may contain the constant.
///
/// Built by the first scan that asks for it on enough rows, kept with the table in its
/// ``Cache`` (shared by the table's copies, so a later fetch with another constant finds it)
/// and kept current by ``EntityTable/set(_:forKey:)``, as ``StringPrefixColumn`` is. A column
/// costs 16 bytes a row, and a column that folds also keeps the folded form of each value that
/// is not ASCII (16 bytes a row, and the string's own storage when it is long), so that a scan
/// tests those rows without folding them again; none exists until a query asks.
struct StringSignatureColumn: Sendable {
    /// A row's signature, and its folded value when the column keeps it.
    struct Entry: Sendable {
        var signature: StringSignature
        var folded: String?

        static let notAString = Entry(signature: .notAString, folded: nil)
    }

    /// Makes the entry of a row's value (``Entry/notAString`` for a value that is not a
    /// string).
    typealias Signer = @Sendable (borrowing StoreValue) -> Entry

    /// The attribute's slot in the rows.
    let slot: Int
    /// How values are folded before they are signed (a comparison's options), as the query
    /// engine numbers them.
    let folding: Int
    let signer: Signer
    /// Signature `offset` of chunk `c` is the row of key `c << EntityTable.chunkShift + offset + 1`.
    private(set) var chunks: [[StringSignature]]
    /// The folded values, chunk by chunk as `chunks` (`nil` where the signer kept none); empty
    /// when no row has one.
    private(set) var foldedChunks: [[String?]] = []

    /// The column of the attribute at `slot` for every row of `table`.
    init(slot: Int, folding: Int, table: EntityTable, signer: @escaping Signer) {
        self.slot = slot
        self.folding = folding
        self.signer = signer
        var foldedChunks: [[String?]] = []
        var keepsFolded = false
        chunks = table.chunks.map { chunk in
            var folded: [String?] = []
            let signatures =
                chunk?.withRows { rows in
                    (0..<rows.count).map { offset -> StringSignature in
                        guard let values = rows.values(at: offset), slot < values.count else {
                            folded.append(nil)
                            return .notAString
                        }
                        let entry = signer(values[slot])
                        folded.append(entry.folded)
                        if entry.folded != nil { keepsFolded = true }
                        return entry.signature
                    }
                } ?? []
            foldedChunks.append(folded)
            return signatures
        }
        if keepsFolded { self.foldedChunks = foldedChunks }
    }

    /// Keeps the column current when the row of `key` becomes `values` (`nil`: removed).
    mutating func update(key: Int64, to values: [StoreValue]?) {
        let index = Int(key - 1)
        let chunk = index >> EntityTable.chunkShift
        let offset = index & (EntityTable.chunkSize - 1)
        let entry = values.map { slot < $0.count ? signer($0[slot]) : .notAString } ?? .notAString
        updateFolded(chunk: chunk, offset: offset, to: entry.folded)
        let signature = entry.signature
        if chunk >= chunks.count {
            guard signature != .notAString else { return }
            chunks.append(contentsOf: repeatElement([], count: chunk - chunks.count + 1))
        }
        if offset >= chunks[chunk].count {
            guard signature != .notAString else { return }
            chunks[chunk].append(
                contentsOf: repeatElement(StringSignature.notAString, count: offset - chunks[chunk].count + 1))
        }
        chunks[chunk][offset] = signature
    }

    private mutating func updateFolded(chunk: Int, offset: Int, to folded: String?) {
        if foldedChunks.isEmpty {
            guard folded != nil else { return }
            foldedChunks = chunks.map { [String?](repeating: nil, count: $0.count) }
        }
        if chunk >= foldedChunks.count {
            guard folded != nil else { return }
            foldedChunks.append(contentsOf: repeatElement([], count: chunk - foldedChunks.count + 1))
        }
        if offset >= foldedChunks[chunk].count {
            guard folded != nil else { return }
            foldedChunks[chunk].append(contentsOf: repeatElement(nil, count: offset - foldedChunks[chunk].count + 1))
        }
        foldedChunks[chunk][offset] = folded
    }

    /// The folded value of the row at `offset` of chunk `chunk`, if the column keeps one.
    @inline(__always)
    func folded(chunk: Int, offset: Int) -> String? {
        guard chunk < foldedChunks.count, offset < foldedChunks[chunk].count else { return nil }
        return foldedChunks[chunk][offset]
    }

    /// The signature of the row at `offset` of chunk `chunk` (``StringSignature/notAString``
    /// past the column's end).
    @inline(__always)
    func signature(chunk: Int, offset: Int) -> StringSignature {
        guard chunk < chunks.count, offset < chunks[chunk].count else { return .notAString }
        return chunks[chunk][offset]
    }

    /// Calls `body` with the signatures of chunk `chunk` (empty past the column's end).
    @inline(__always)
    func withSignatures<Result>(
        ofChunk chunk: Int, _ body: (UnsafeBufferPointer<StringSignature>) -> Result
    ) -> Result {
        guard chunk < chunks.count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return chunks[chunk].withUnsafeBufferPointer(body)
    }
}

extension StringSignatureColumn {
    /// The signature columns of one table value and of the copies that share it, built on
    /// first use; detached and kept current as ``StringPrefixColumn/Cache`` is.
    final class Cache: Sendable {
        private let columns: Locked<[StringSignatureColumn]>
        /// How many columns have been built: read without the lock, so that a table without
        /// columns changes at no extra cost.
        private let builtCount: Atomic<Int>

        init(_ columns: [StringSignatureColumn] = []) {
            self.columns = Locked(columns)
            builtCount = Atomic(columns.count)
        }

        /// Whether no column has been built.
        var isEmpty: Bool { builtCount.load(ordering: .acquiring) == 0 }

        /// A cache of its own with the same columns, for a table about to change.
        func detached() -> Cache {
            isEmpty ? Cache() : Cache(columns.withLock { $0 })
        }

        /// The column of `slot` folded as `folding` says, built from `table` (whose rows the
        /// cache describes) with `signer` if it has none and `build` is true.
        func column(
            slot: Int, folding: Int, of table: EntityTable, build: Bool, signer: @escaping Signer
        ) -> StringSignatureColumn? {
            if !build, isEmpty { return nil }
            return columns.withLock { columns in
                if let column = columns.first(where: { $0.slot == slot && $0.folding == folding }) { return column }
                guard build else { return nil }
                let column = StringSignatureColumn(slot: slot, folding: folding, table: table, signer: signer)
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
