import Foundation

/// Lightweight (inferred) migration on snapshots: what a store does when it opens with a changed
/// model, for tools, dry runs and tests.
///
/// For example, a dry run:
/// ```swift
/// let old = try StoreFileInspector.snapshot(of: url)
/// for change in try SchemaMigration.changes(migrating: old, to: model) { print(change) }
/// ```
///
/// Core Data: `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)` and
/// `NSMigrationManager`.
public enum SchemaMigration {
    /// What migrating `snapshot` to `model` changes, each change with the number of stored
    /// objects it touches; empty when nothing changes.
    ///
    /// - Throws: `PersistenceError.Code.modelMismatch` naming the entity and property of each
    ///   change that cannot be inferred.
    public static func changes(migrating snapshot: StoreSnapshot, to model: ManagedObjectModel) throws
        -> [SchemaChange]
    {
        let mapping = try SchemaMapping.infer(from: snapshot.model.entities, to: model)
        return snapshot.counted(mapping)
    }

    /// `snapshot`'s data as data of `model`, migrated as a store migrates it when it opens.
    ///
    /// - Throws: `PersistenceError.Code.modelMismatch` naming the entity and property of each
    ///   change that cannot be made (see Docs/Migration.md), and how many objects it affects.
    /// - Complexity: O(*n*) in the number of objects.
    public static func migrate(
        _ snapshot: StoreSnapshot, to model: ManagedObjectModel,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> StoreSnapshot {
        var options = MigrationOptions.automatic
        options.progress = progress
        return try StoreMigrator.inferred(snapshot, to: model, options: options)
    }
}
