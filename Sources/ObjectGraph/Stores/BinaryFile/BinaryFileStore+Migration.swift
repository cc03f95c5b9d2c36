import Foundation

extension BinaryFileStore {
    /// The replay of a binary store read with `model`: migrated when the header's schema differs
    /// and `migration` allows it, and then, when `file` is given, rewritten compactly (header and
    /// one snapshot frame) in place of the old file all at once; nothing is written when
    /// anything fails.
    ///
    /// - Throws: what `BinaryStoreReplay` throws, `saveTooLarge` when the migrated data does not
    ///   fit one frame, and a migration's `modelMismatch` naming the entity and property that
    ///   cannot be migrated.
    func replayMigrating(
        _ bytes: [UInt8], model: ManagedObjectModel, migration: MigrationOptions, writingTo file: StoreFile?
    ) throws -> BinaryStoreReplay {
        // A header that cannot be read is replayed as it is, to report the damage.
        guard let stored = try? bytes.withUnsafeBytes({ try BinaryStoreHeader.decode($0, url: url).schema }),
            StoreMigrator.needsMigration(stored, to: model, migration)
        else { return try BinaryStoreReplay(bytes: bytes, url: url, model: model) }
        var replay = try BinaryStoreReplay(
            bytes: bytes, url: url, model: try StoreMigrator.sourceModel(stored, target: model))
        let migrated = try StoreMigrator.migrate(replay.snapshot, to: model, options: migration)
        let header = BinaryStoreHeader.encode(model.entities)
        let frame = BinaryStoreFrame.encodeSnapshot(migrated)
        guard frame.count - BinaryStoreFrame.headerSize <= BinaryStoreFrame.maximumPayload else {
            throw PersistenceError.saveTooLarge(url, bytes: frame.count)
        }
        let rewritten = header + frame
        if let file { try StoreMigrator.swap(rewritten, replacing: bytes, in: file, options: migration) }
        replay.snapshot = migrated
        replay.validEnd = rewritten.count
        replay.hasTornTail = false
        replay.liveBytes = rewritten.count
        replay.headerSize = header.count
        return replay
    }
}

extension BinaryFileStore: SchemaMigratingStore {}
