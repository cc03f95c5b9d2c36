/// The bound on how sparse a store's keys may be. A table keeps one chunk slot (about 16 bytes)
/// per 512 keys up to its highest key, so one object at key 2^32 costs 128 MiB of empty slots:
/// a few bytes of hostile file could ask for gigabytes. Loaders check every key against this
/// bound before storing it (Docs/StoreFormats.md, "Limits").
extension StoreSnapshot {
    /// The chunk slots all tables together may hold beyond one per row: 2^20 slots, 16 MiB,
    /// enough for one object at key 2^29 in an otherwise empty store.
    static let keySpaceAllowance = 1 << 20

    /// Whether a row at `key` in the table at `table` keeps the tables' chunk slots within
    /// ``keySpaceAllowance`` or the number of rows. Cheap unless the row starts new chunks.
    func keySpaceAdmits(_ key: Int64, table: Int) -> Bool {
        let needed = Int((key - 1) >> Int64(EntityTable.chunkShift)) + 1
        let current = tables[table].chunks.count
        guard needed > current else { return true }
        let slots = tables.reduce(0) { $0 + $1.chunks.count } + needed - current
        return slots <= Swift.max(Self.keySpaceAllowance, count + 1)
    }
}
