import Foundation
import ObjectGraph
import Testing

@Suite struct CompactCommandTests {
    // MARK: - Binary stores

    @Test func compactRewritesTheLogAsOneFrameKeepingTheData() throws {
        let url = try StoreFixtures.makeStore(.binary)
        for round in 0..<5 { try StoreFixtures.appendSave(.binary, at: url, name: "apple \(round)") }
        let before = StoreFixtures.size(url)
        let contents = try StoreFixtures.contents(of: url)
        let run = objectgraph("compact", url.path)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let after = StoreFixtures.size(url)
        #expect(after < before)
        #expect(run.output == "compacted \(url.path): \(before) -> \(after) bytes, 8 -> 1 frames\n")
        #expect(try StoreFixtures.contents(of: url) == contents)
        #expect(try StoreFileInspector.inspect(url).frameCount == 1)
        #expect(objectgraph("verify", url.path).output == "ok\n")
    }

    @Test func compactCutsATornTail() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        let contents = try StoreFixtures.contents(of: url)
        try StoreFixtures.appendSave(.binary, at: url)
        StoreFixtures.write(Array(StoreFixtures.bytes(url).dropLast(2)), to: url)
        #expect(objectgraph("verify", url.path).status == 1)
        let run = objectgraph("compact", url.path)
        #expect(run.status == 0)
        #expect(run.output.hasSuffix(", 3 -> 1 frames, cut an incomplete last save at byte \(boundary)\n"))
        #expect(objectgraph("verify", url.path).output == "ok\n")
        #expect(try StoreFixtures.contents(of: url) == contents)
    }

    @Test func compactStoreIsLeftUntouched() throws {
        let url = try StoreFixtures.makeStore(.binary)
        #expect(objectgraph("compact", url.path).status == 0)
        let bytes = StoreFixtures.bytes(url)
        let run = objectgraph("compact", url.path)
        #expect(run.status == 0)
        #expect(run.output == "\(url.path) is already compact (\(bytes.count) bytes)\n")
        #expect(StoreFixtures.bytes(url) == bytes)
    }

    @Test func compactedStoreOpensAndKeepsAllocatingKeys() throws {
        let url = try StoreFixtures.makeStore(.binary)
        #expect(objectgraph("compact", url.path).status == 0)
        let container = try PersistentContainer(model: StoreFixtures.model, storeDescription: .binaryFile(url))
        let context = container.newContext()
        #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Fruit")) == 2)
        #expect(StoreFixtures.insert("Fruit", ["name": "kiwi"], into: context).objectID.key == 4)
    }

    @Test func storeOpenInAContainerIsRefused() throws {
        let url = try StoreFixtures.makeStore(.binary)
        try StoreFixtures.appendSave(.binary, at: url)
        let bytes = StoreFixtures.bytes(url)
        let container = try PersistentContainer(model: StoreFixtures.model, storeDescription: .binaryFile(url))
        let run = objectgraph("compact", url.path)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("objectgraph compact: storeLocked: The store \(url.path) is open"))
        #expect(StoreFixtures.bytes(url) == bytes)
        withExtendedLifetime(container) {}
    }

    @Test func damagedStoreIsNotRewritten() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        try StoreFixtures.appendSave(.binary, at: url)
        try StoreFixtures.appendSave(.binary, at: url, name: "red apple")
        var bytes = StoreFixtures.bytes(url)
        bytes[boundary + 9] ^= 0x40
        StoreFixtures.write(bytes, to: url)
        let run = objectgraph("compact", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("is damaged at byte \(boundary)"))
        #expect(StoreFixtures.bytes(url) == bytes)
    }

    // MARK: - JSON stores

    @Test(arguments: [true, false])
    func jsonStoreIsRewrittenInItsCanonicalFormKeepingItsLayout(pretty: Bool) throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.json")
        try saveOneFruit(in: JSONFileStore(url: url, prettyPrinted: pretty))
        let canonical = StoreFixtures.bytes(url)
        #expect(canonical.contains(UInt8(ascii: "\n")) == pretty)
        let reformatted = canonical.map { $0 == UInt8(ascii: ":") ? [$0, 0x20, 0x20] : [$0] }.joined()
        StoreFixtures.write(Array(reformatted), to: url)
        let run = objectgraph("compact", url.path)
        #expect(run.status == 0)
        #expect(StoreFixtures.bytes(url) == canonical)
        #expect(objectgraph("compact", url.path).output.contains("is already compact"))
    }

    private func saveOneFruit(in store: JSONFileStore) throws {
        let container = try PersistentContainer(model: StoreFixtures.model, store: store)
        let context = container.newContext()
        StoreFixtures.insert("Fruit", ["name": "apple", "price": 1], into: context)
        try context.save()
    }
}
