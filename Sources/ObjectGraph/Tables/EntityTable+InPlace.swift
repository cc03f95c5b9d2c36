extension EntityTable {
    /// Reads the values of the rows in a chunk's buffer where they lie, without copying them.
    ///
    /// A scan reads thousands of rows' values to test them and keeps few. Copying a row out of
    /// the chunk retains its values array, and a retain is an atomic write: on x86 it waits for
    /// the array's cache line and keeps the next rows' loads from starting early, so every
    /// row's cache miss is paid in full, one after another (45% of the issue 4 range query
    /// with an index on price). Reading the values where they lie lets the processor overlap
    /// the misses of neighbouring rows.
    ///
    /// The row is passed `borrowing` and matched with a borrowing `switch`, and its values are
    /// read through `Array.withUnsafeBufferPointer`: no copy, so no retain, and nothing but the
    /// standard library's public API (issue 24: an earlier version read the private layout of
    /// `Optional<Row>` and of an array's storage).
    enum InPlaceRows {
        /// Whether the row at `offset` of `rows` exists and `include` holds for its values.
        @inline(__always)
        static func test(
            _ rows: UnsafeBufferPointer<Row?>, at offset: Int, _ include: (UnsafeBufferPointer<StoreValue>) -> Bool
        ) -> Bool {
            withValues(of: rows[offset], include) ?? false
        }

        /// `body` applied to the values of `row`, or `nil` if there is no row.
        @inline(__always)
        static func withValues<Result>(
            of row: borrowing Row?, _ body: (UnsafeBufferPointer<StoreValue>) -> Result
        ) -> Result? {
            switch row {
            case .some(let row): row.values.withUnsafeBufferPointer(body)
            case .none: nil
            }
        }
    }
}
