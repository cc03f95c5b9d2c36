import ObjectGraph
import Testing

/// The store the shared suites (the predicate table and the integrity tests) use when a test
/// names none: a fresh in-memory store, or the kind a suite sets with `$kind.withValue(_:)` to
/// run those tests unchanged on another store (`PostgresSharedSuiteTests`).
enum SharedSuiteStore {
    @TaskLocal static var kind = StoreKind.inMemory

    /// A new store of the current kind.
    static func makeStore() -> any PersistentStore { kind.makeStore() }

    /// A description of a new store of the current kind (in-memory, or PostgreSQL in a fresh
    /// schema; the file kinds are not used by these suites).
    static func description() -> StoreDescription {
        kind == .postgres ? PostgresTestStore.makeDescription() : .inMemory
    }
}
