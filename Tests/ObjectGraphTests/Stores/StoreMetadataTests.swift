import Foundation
import ObjectGraph
import Testing

@Suite struct StoreMetadataTests {
    // MARK: - Every store

    @Test(arguments: StoreKind.allCases)
    func metadataIsReadBackAndKeptByStoresThatPersist(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            #expect(container.storeMetadata.isEmpty)
            try container.setStoreMetadata(["seeded": "1", "token": "a\"b\\c ü"])
            #expect(container.storeMetadata == ["seeded": "1", "token": "a\"b\\c ü"])
            let context = container.newContext()
            makeFruit(context, "Apple")
            try context.save()  // a save of objects keeps the metadata
            #expect(container.storeMetadata["seeded"] == "1")
        }
        let relaunched = try PersistentContainer(model: TestModels.fruits, store: store)
        #expect(relaunched.storeMetadata == (kind.persists ? ["seeded": "1", "token": "a\"b\\c ü"] : [:]))
    }

    @Test(arguments: StoreKind.allCases)
    func replacingMetadataRemovesKeysLeftOut(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            try container.setStoreMetadata(["a": "1", "b": "2"])
            try container.setStoreMetadata(["b": "3"])
            try container.setStoreMetadata(["b": "3"])  // unchanged: nothing written
        }
        let relaunched = try PersistentContainer(model: TestModels.fruits, store: store)
        #expect(relaunched.storeMetadata == (kind.persists ? ["b": "3"] : [:]))
        if kind.persists {
            try relaunched.setStoreMetadata([:])
            #expect(relaunched.storeMetadata.isEmpty)
        }
    }

    // MARK: - File formats

    @Test func aJSONStoreWithoutMetadataIsWrittenAsBefore() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("store.json")
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .jsonFile(url))
        let context = container.newContext()
        makeFruit(context, "Apple")
        try context.save()
        let plain = try String(contentsOf: url, encoding: .utf8)
        #expect(plain.contains("\"version\": 1") && !plain.contains("metadata"))
        try container.setStoreMetadata(["importedAt": "2026-11-25"])
        let tagged = try String(contentsOf: url, encoding: .utf8)
        #expect(tagged.contains("\"version\": 2"))
        #expect(tagged.hasSuffix("  },\n  \"metadata\": {\n    \"importedAt\": \"2026-11-25\"\n  }\n}\n"))
        try container.setStoreMetadata([:])
        #expect(try String(contentsOf: url, encoding: .utf8) == plain)
    }

    @Test func aBinaryStoreKeepsMetadataThroughCompaction() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("store.ogdb")
        do {
            let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .binaryFile(url))
            try container.setStoreMetadata(["schema": "3"])
            let context = container.newContext()
            let apple = makeFruit(context, "Apple")
            // Rewrite one object until the log outgrows the live data and compacts.
            for index in 0..<300 {
                apple.name = String(repeating: "x", count: 400) + "\(index)"
                try context.save()
            }
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size < 300 * 400)  // compacted
        let relaunched = try PersistentContainer(model: TestModels.fruits, storeDescription: .binaryFile(url))
        #expect(relaunched.storeMetadata == ["schema": "3"])
        #expect(try relaunched.newContext().count(for: Fruit.fetchRequest()) == 1)
    }

    // MARK: - Failures

    @Test func aReadOnlyStoreReadsMetadataAndRefusesToChangeIt() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("store.json")
        do {
            let writer = try PersistentContainer(model: TestModels.fruits, storeDescription: .jsonFile(url))
            try writer.setStoreMetadata(["owner": "me"])
        }
        var description = StoreDescription.jsonFile(url)
        description.isReadOnly = true
        let reader = try PersistentContainer(model: TestModels.fruits, storeDescription: description)
        #expect(reader.storeMetadata == ["owner": "me"])
        let error = try #require(throws: PersistenceError.self) { try reader.setStoreMetadata(["owner": "you"]) }
        #expect(error.code == .readOnlyStore)
        #expect(reader.storeMetadata == ["owner": "me"])
    }

    @Test func aFailedWriteLeavesTheMetadataUnchanged() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        try container.setStoreMetadata(["a": "1"])
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try container.setStoreMetadata(["a": "2"]) }
        #expect(container.storeMetadata == ["a": "1"])
    }
}
