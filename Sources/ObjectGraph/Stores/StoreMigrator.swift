import Foundation

/// What the stores share when they open with a changed model: deciding whether to migrate, the
/// source model read from the stored schema, running the migration (inferred, or the container's
/// staged plan), and swapping the migrated file in with the atomic-write protocol.
enum StoreMigrator {
    /// Whether data stored with `stored` needs migrating to open with `model` under `options`.
    static func needsMigration(_ stored: [EntityDescription], to model: ManagedObjectModel, _ options: MigrationOptions)
        -> Bool
    {
        options.mode != .disabled && !StoreSchema.isSame(stored, as: model.entities)
    }

    /// The stored schema as a model, to read the old data with.
    ///
    /// - Throws: `PersistenceError.Code.modelMismatch` listing the differences when the stored
    ///   schema is not a valid model.
    static func sourceModel(_ stored: [EntityDescription], target: ManagedObjectModel) throws -> ManagedObjectModel {
        do {
            return try ManagedObjectModel(entities: stored)
        } catch {
            throw PersistenceError.modelMismatch(
                ManagedObjectModel.schemaDifferences(from: stored, to: target.entities))
        }
    }

    /// `source` (data of the stored schema) as data of `model`: empty when erasing, through the
    /// staged plan when the container has one, inferred otherwise.
    static func migrate(_ source: StoreSnapshot, to model: ManagedObjectModel, options: MigrationOptions) throws
        -> StoreSnapshot
    {
        if options.mode == .eraseOnSchemaChange { return StoreSnapshot(model: model) }
        if let staged = options.stagedMigration { return try staged(source, model, options) }
        return try inferred(source, to: model, options: options)
    }

    /// `source` migrated by the inferred mapping.
    static func inferred(_ source: StoreSnapshot, to model: ManagedObjectModel, options: MigrationOptions) throws
        -> StoreSnapshot
    {
        let mapping = try SchemaMapping.infer(from: source.model.entities, to: model)
        return try source.migrated(with: mapping) { done, total in options.report(done, of: total) }
    }

    /// Replaces the store file with `bytes`, the migrated store, all at once (keeping `old`, the
    /// file's contents, as the backup first if asked): a crash leaves the old or the new file.
    static func swap(_ bytes: [UInt8], replacing old: [UInt8], in file: StoreFile, options: MigrationOptions) throws {
        if options.keepsBackup {
            let backup = AtomicFile(fileSystem: file.fileSystem, path: file.path + ".backup")
            try backup.removeLeftoverTemporaryFiles()
            try backup.write(old)
        }
        try file.atomicFile.write(bytes)
    }
}
