extension ManagedContext {
    /// The commit's inserts, read from `objects` (the pending inserts in order) while the commit
    /// runs, instead of one write record per object: at the peak of a save of many new objects,
    /// the records were the largest thing beside the objects and their new rows.
    func insertedWrites(_ objects: [ManagedObject]) -> StoreCoordinator.Commit.Inserts {
        StoreCoordinator.Commit.Inserts(count: objects.count) { position in
            let object = objects[position]
            return .init(
                entityIndex: object.info.index, key: object.objectKey, values: object.values,
                expectedVersion: object.version, original: object.committed)
        }
    }

    /// Runs `body` (a save's commit) without the set of inserted objects when the insertion order
    /// lists them exactly, and puts the set back, rebuilt from that order, if `body` throws. A
    /// successful save empties the set next, so it need not be held while the store saves.
    func withInsertedSetReleased<T>(_ body: () throws -> T) rethrows -> T {
        guard insertionOrderIsExact, !inserted.isEmpty else { return try body() }
        inserted = []
        do {
            return try body()
        } catch {
            inserted = Set(insertionOrder)
            throw error
        }
    }
}
