extension FetchScan {
    /// The same scan over `snapshot`'s table of the entity: a state holding rows the scan's
    /// own snapshot did not (read from a querying store).
    func reading(_ snapshot: StoreSnapshot) -> FetchScan {
        FetchScan(
            info: info, snapshot: snapshot, table: snapshot.tables[info.index],
            includesPendingChanges: includesPendingChanges, pending: pending, overrides: overrides)
    }
}
