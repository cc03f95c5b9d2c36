import Foundation

extension JSONFileStore {
    /// The snapshot of a JSON store document read with `model`: migrated when the document's
    /// schema differs and `migration` allows it, and then, when `file` is given, written back in
    /// place of the old document all at once (nothing is written when anything fails).
    ///
    /// - Throws: what `JSONStoreDocument.decode` throws, and a migration's `modelMismatch` naming
    ///   the entity and property that cannot be migrated.
    func decodeMigrating(
        _ bytes: [UInt8], model: ManagedObjectModel, migration: MigrationOptions, writingTo file: StoreFile?
    )
        throws -> StoreSnapshot
    {
        // A document whose schema cannot be read is decoded as it is, to report the damage.
        let read = try? JSONStoreDocument.readSchema(of: bytes, url: url)
        guard let stored = read?.schema, StoreMigrator.needsMigration(stored, to: model, migration)
        else { return try JSONStoreDocument.decode(bytes, url: url, model: model, known: read) }
        let migrated: StoreSnapshot
        if migration.mode == .eraseOnSchemaChange {
            migrated = StoreSnapshot(model: model)
        } else {
            let source = try JSONStoreDocument.decode(
                bytes, url: url, model: try StoreMigrator.sourceModel(stored, target: model), known: read)
            migrated = try StoreMigrator.migrate(source, to: model, options: migration)
        }
        if let file {
            try StoreMigrator.swap(
                JSONStoreDocument.encode(migrated, pretty: prettyPrinted), replacing: bytes, in: file,
                options: migration)
        }
        return migrated
    }
}

extension JSONFileStore: SchemaMigratingStore {}
