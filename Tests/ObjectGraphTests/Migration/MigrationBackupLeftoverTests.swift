import Foundation
import ObjectGraph
import Testing

@Suite struct MigrationBackupLeftoverTests {
    /// A migration killed while it wrote the backup leaves the backup's temporary file; the next
    /// open of the store removes it, as it removes the store's own.
    @Test(arguments: ["store.json", "store.ogdb"])
    func openingAStoreRemovesAKilledBackupsTemporaryFile(name: String) throws {
        let folder = TemporaryDirectory.make()
        let url = folder.appendingPathComponent(name)
        let leftover = folder.appendingPathComponent(".objectgraph-tmp-\(name).backup-0123456789abcdef")
        try Data("half a backup".utf8).write(to: leftover)
        let unrelated = folder.appendingPathComponent(".objectgraph-tmp-other.json-0123456789abcdef")
        try Data("another store's".utf8).write(to: unrelated)
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Item")])
        _ = try PersistentContainer(model: model, storeDescription: StoreDescription(url: url))
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
    }
}
