import Foundation
import ObjectGraph

/// The crash writer's second model: `payload` renamed `text`, and a new optional `note`.
func migratedCrashModel() throws -> ManagedObjectModel {
    try ManagedObjectModel(entities: [
        EntityDescription(
            name: "Entry",
            attributes: [
                AttributeDescription(name: "number", type: .integer64, defaultValue: 0),
                AttributeDescription(name: "text", type: .string, defaultValue: "", renamingIdentifier: "payload"),
                AttributeDescription(name: "note", type: .string, isOptional: true, defaultValue: "migrated"),
            ]),
        EntityDescription(
            name: "Tally", attributes: [AttributeDescription(name: "count", type: .integer64, defaultValue: 0)]),
    ])
}

/// `migrate-json|migrate-binary|migrate-sqlite PATH`: opens the store with the second model,
/// which migrates it, prints "migrated" and exits. The parent kills it at a random moment and
/// checks that the store is the old file, byte for byte, or the whole migrated one, and that no
/// temporary file survives the next open.
func runMigration(kind: String, path: String) -> Never {
    let url = URL(fileURLWithPath: path)
    let store: any PersistentStore =
        switch kind {
        case "json": JSONFileStore(url: url)
        case "sqlite": SQLiteStore(url: url, migration: MigrationOptions(keepsBackup: true))
        default: BinaryFileStore(url: url, migration: MigrationOptions(keepsBackup: true))
        }
    do {
        _ = try PersistentContainer(model: try migratedCrashModel(), store: store)
        FileHandle.standardOutput.write(Data("migrated\n".utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
