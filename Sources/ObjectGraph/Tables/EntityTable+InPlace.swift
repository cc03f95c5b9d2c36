extension EntityTable {
    /// Reads the values of the rows in a chunk's buffer in place, without retaining them.
    ///
    /// A scan reads thousands of rows' values to test them and keeps few. Copying a row out of
    /// the chunk retains its values array, and a retain is an atomic write: on x86 it waits for
    /// the array's cache line and keeps the next rows' loads from starting early, so every
    /// row's cache miss is paid in full, one after another (45% of the issue 4 range query
    /// with an index on price). Reading the array's storage in place lets the processor overlap
    /// the misses of neighbouring rows.
    ///
    /// The reads rely on how Swift lays out an optional row (no row: a null values reference)
    /// and a native array's storage (its count and first element after the object header).
    /// ``isVerified`` checks both once against the standard library's own accessors; where it
    /// does not hold, the readers copy the rows as before.
    enum InPlaceRows {
        /// The byte offset of a row's values reference in `Row` (and `Row?`): after its version.
        private static var valuesOffset: Int { MemoryLayout<Int64>.stride }
        /// The byte offsets of the count and of the first element in an array's storage: after
        /// the object header (type and reference count), then after the count and capacity.
        private static var countOffset: Int { 2 * MemoryLayout<Int>.stride }
        private static var elementsOffset: Int { 4 * MemoryLayout<Int>.stride }

        /// Whether in-place reads agree with the standard library on this platform.
        static let isVerified: Bool = {
            guard MemoryLayout<Row?>.size == MemoryLayout<Row>.size,
                MemoryLayout<Row>.offset(of: \Row.values) == valuesOffset,
                MemoryLayout<StoreValue>.alignment <= MemoryLayout<Int>.alignment
            else { return false }
            var grown: [StoreValue] = []
            for number in 0..<5 { grown.append(.int(Int64(number))) }
            let probes: [Row?] = [
                Row(version: 1, values: [.int(7), .string("probe"), .null]), nil,
                Row(version: 2, values: []), Row(version: 3, values: grown), nil,
            ]
            return probes.withUnsafeBufferPointer { rows in
                rows.indices.allSatisfy { offset in
                    let read = values(in: rows, at: offset)
                    guard let row = rows[offset] else { return read == nil }
                    guard let read, read.count == row.values.count else { return false }
                    return row.values.isEmpty
                        || row.values.withUnsafeBufferPointer { $0.baseAddress == read.baseAddress }
                }
            }
        }()

        /// The values of the row at `offset` of `rows`, or `nil` if there is none; valid while
        /// `rows` is.
        @inline(__always)
        static func values(in rows: UnsafeBufferPointer<Row?>, at offset: Int) -> UnsafeBufferPointer<StoreValue>? {
            let row = UnsafeRawPointer(rows.baseAddress.unsafelyUnwrapped) + offset * MemoryLayout<Row?>.stride
            guard let storage = row.load(fromByteOffset: valuesOffset, as: UnsafeRawPointer?.self) else { return nil }
            let count = storage.load(fromByteOffset: countOffset, as: Int.self)
            return UnsafeBufferPointer(
                start: (storage + elementsOffset).assumingMemoryBound(to: StoreValue.self), count: count)
        }

        /// Whether the row at `offset` of `rows` exists and `include` holds for it (given its
        /// values), read in place if `inPlace` (``isVerified``, read once per scan).
        @inline(__always)
        static func test(
            _ rows: UnsafeBufferPointer<Row?>, at offset: Int, inPlace: Bool,
            _ include: (UnsafeBufferPointer<StoreValue>) -> Bool
        ) -> Bool {
            if inPlace {
                guard let values = values(in: rows, at: offset) else { return false }
                return include(values)
            }
            return rows[offset]?.values.withUnsafeBufferPointer(include) == true
        }
    }
}
