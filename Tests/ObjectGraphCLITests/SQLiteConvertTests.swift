import Foundation
import ObjectGraph
import Testing

@Suite struct SQLiteConvertTests {
    @Test func fileStoresConvertToSQLiteAndBackKeepingEverything() throws {
        let original = try StoreFixtures.makeStore(.binary)
        let directory = original.deletingLastPathComponent()
        let sqlite = directory.appendingPathComponent("fruits.sqlite")
        let json = directory.appendingPathComponent("back.json")
        #expect(objectgraph("convert", original.path, sqlite.path).status == 0)
        #expect(try StoreFileInspector.kind(of: sqlite) == .sqlite)
        #expect(objectgraph("verify", sqlite.path).output == "ok\n")
        #expect(objectgraph("convert", sqlite.path, json.path).status == 0)
        #expect(try StoreFixtures.contents(of: sqlite) == StoreFixtures.contents(of: original))
        #expect(try StoreFixtures.contents(of: json) == StoreFixtures.contents(of: original))
        // The converted file opens as a store with the app's model and keeps allocating keys.
        let container = try PersistentContainer(model: StoreFixtures.model, storeDescription: .sqliteFile(sqlite))
        let context = container.newContext()
        let kiwi = StoreFixtures.insert("Fruit", ["name": "kiwi", "price": 10], into: context)
        try context.save()
        #expect(kiwi.objectID.key == 4)
    }

    @Test func compactingASQLiteStoreKeepsItsData() throws {
        let url = try StoreFixtures.makeStore(.sqlite)
        let before = try StoreFixtures.contents(of: url)
        let run = objectgraph("compact", url.path)
        #expect(run.status == 0, "\(run.error)")
        #expect(try StoreFixtures.contents(of: url) == before)
    }
}
