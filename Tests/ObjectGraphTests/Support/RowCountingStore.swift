import Foundation

@testable import ObjectGraph

/// A SQLite store that counts the rows the container reads from it, and runs a test's action
/// after each read transaction the container asks for (to write from a second connection in
/// between two of them).
final class RowCountingStore: QueryingStore, ExternallyChangedStore {
    let inner: SQLiteStore
    // Safe: `Locked` holds the counters and the action behind its own lock.
    private let counters = Locked((rows: 0, transactions: 0))
    /// The test's action, and how many read transactions are still to end before it runs.
    private let action = Locked<(after: Int, body: @Sendable () -> Void)?>(nil)

    init(url: URL) { inner = SQLiteStore(url: url) }

    /// The rows read so far (by key, by query and by reading everything).
    var rowsRead: Int { counters.withLock { $0.rows } }
    /// The read transactions the container asked for so far (`withDatabase` and row reads).
    var readTransactions: Int { counters.withLock { $0.transactions } }

    func resetCounts() { counters.withLock { $0 = (0, 0) } }

    /// Runs `body` (once) after the `number`th read transaction from now ends.
    func afterReadTransaction(_ number: Int, _ body: @escaping @Sendable () -> Void) {
        action.withLock { $0 = (number, body) }
    }

    private func counted<T>(rows: (T) -> Int, _ read: () throws -> T) rethrows -> T {
        let result = try read()
        counters.withLock {
            $0.rows += rows(result)
            $0.transactions += 1
        }
        let due = action.withLock { current -> (@Sendable () -> Void)? in
            guard let (after, body) = current else { return nil }
            current = after > 1 ? (after - 1, body) : nil
            return after > 1 ? nil : body
        }
        due?()
        return result
    }

    func load(model: ManagedObjectModel) throws -> StoreSnapshot { try inner.load(model: model) }
    func save(_ changes: StoreChangeSet) throws { try inner.save(changes) }
    func close() { inner.close() }

    func open(model: ManagedObjectModel, migration: MigrationOptions?) throws -> StoreSnapshot {
        try inner.open(model: model, migration: migration)
    }
    var answersQueries: Bool { inner.answersQueries }
    func layout() throws -> SQLStoreSchema { try inner.layout() }
    func withDatabase<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try counted(rows: { _ in 0 }) { try inner.withDatabase(body) }
    }
    func rows(entityIndex: Int, keys: [Int64]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try counted(rows: \.count) { try inner.rows(entityIndex: entityIndex, keys: keys) }
    }
    func rows(entityIndex: Int, query: String, bindings: [SQLValue]) throws -> [(key: Int64, row: EntityTable.Row)] {
        try counted(rows: \.count) { try inner.rows(entityIndex: entityIndex, query: query, bindings: bindings) }
    }
    func readAll() throws -> StoreSnapshot { try counted(rows: \.count) { try inner.readAll() } }

    /// Fails the checks for other processes' saves with `error` (none: `nil`).
    let failsExternalChecks = Locked<PersistenceError?>(nil)

    func externalChanges() throws -> StoreExternalChanges? {
        if let error = failsExternalChecks.withLock({ $0 }) { throw error }
        return countingRecords(try inner.externalChanges())
    }
    func externalChangedObjects() throws -> StoreExternalChanges? {
        if let error = failsExternalChecks.withLock({ $0 }) { throw error }
        return countingRecords(try inner.externalChangedObjects())
    }

    /// Counts the rows read with other processes' saves (not as a read transaction of the test's).
    private func countingRecords(_ changes: StoreExternalChanges?) -> StoreExternalChanges? {
        counters.withLock { $0.rows += changes?.records.count ?? 0 }
        return changes
    }
    func reserveKeys(ofEntity entityName: String, count: Int64) throws -> Int64 {
        try inner.reserveKeys(ofEntity: entityName, count: count)
    }
}
