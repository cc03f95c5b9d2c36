import Foundation
import ObjectGraph

/// Where ``PersistentContainer/migratedForTesting(from:to:in:seed:)`` keeps the store it
/// migrates: in memory, or in a JSON or binary file in a fresh temporary directory.
public enum MigrationTestStore: String, Sendable, CaseIterable {
    /// An ``InMemoryStore``, handed to a container with the new model.
    case inMemory
    /// A ``JSONFileStore`` in a fresh temporary directory.
    case jsonFile
    /// A ``BinaryFileStore`` in a fresh temporary directory.
    case binaryFile

    /// A new store of this kind: each file store in a directory of its own.
    func makeStore() throws -> any PersistentStore {
        guard self != .inMemory else { return InMemoryStore() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "objectgraph-migration-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return self == .jsonFile
            ? JSONFileStore(url: directory.appendingPathComponent("store.json"))
            : BinaryFileStore(url: directory.appendingPathComponent("store.ogdb"))
    }

    /// The same store again, for a second container (a file store is reopened; the in-memory
    /// store is the same instance).
    static func reopen(_ store: any PersistentStore) -> any PersistentStore {
        if let json = store as? JSONFileStore { return JSONFileStore(url: json.url) }
        if let binary = store as? BinaryFileStore { return BinaryFileStore(url: binary.url) }
        return store
    }
}

extension PersistentContainer {
    /// A container on a store written with `old`, filled by `seed` and saved, then opened with
    /// `new`: the store migrated as an app's store would be on launch. One line to test a
    /// migration.
    ///
    /// For example:
    /// ```swift
    /// let container = try PersistentContainer.migratedForTesting(from: v1, to: v2) { context in
    ///     ManagedObject(entity: v1.entity(named: "Note")!, insertInto: context)
    /// }
    /// ```
    ///
    /// - Throws: what `seed` or its save throws, and the migration's error
    ///   (`PersistenceError.Code.modelMismatch` naming the entity and property).
    public static func migratedForTesting(
        from old: ManagedObjectModel, to new: ManagedObjectModel, in store: MigrationTestStore = .inMemory,
        seed: (ManagedContext) throws -> Void
    ) throws -> PersistentContainer {
        let written = try seeded(old, in: store, seed)
        return try PersistentContainer(model: new, store: MigrationTestStore.reopen(written))
    }

    /// A container on a store written with `old` (one of the plan's versions), filled by `seed`
    /// and saved, then opened with the last version of `plan`, through its stages.
    ///
    /// - Throws: as ``migratedForTesting(from:to:in:seed:)``.
    public static func migratedForTesting<Plan: SchemaMigrationPlan>(
        _ plan: Plan.Type, from old: ManagedObjectModel, in store: MigrationTestStore = .inMemory,
        seed: (ManagedContext) throws -> Void
    ) throws -> PersistentContainer {
        let written = try seeded(old, in: store, seed)
        return try PersistentContainer(migrationPlan: plan, store: MigrationTestStore.reopen(written))
    }

    private static func seeded(
        _ model: ManagedObjectModel, in kind: MigrationTestStore, _ seed: (ManagedContext) throws -> Void
    ) throws -> any PersistentStore {
        let store = try kind.makeStore()
        let container = try PersistentContainer(model: model, store: store)
        let context = container.newContext()
        try seed(context)
        try context.save()
        return store
    }
}
