import Foundation
import ObjectGraph
import Testing

@Suite struct ReadOnlyStoreTests {
    enum FileKind: String, CaseIterable, Sendable {
        case json, binary

        func description(_ url: URL, readOnly: Bool) -> StoreDescription {
            var description: StoreDescription = self == .json ? .jsonFile(url) : .binaryFile(url)
            description.isReadOnly = readOnly
            return description
        }

        var fileName: String { self == .json ? "store.json" : "store.ogdb" }
    }

    /// A store file holding Apple (100) and Pear (200), written and closed, without its lock file.
    private func makeSavedStore(_ kind: FileKind) throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent(kind.fileName)
        do {
            let container = try PersistentContainer(
                model: TestModels.fruits, storeDescription: kind.description(url, readOnly: false))
            let context = container.newContext()
            makeFruit(context, "Apple", price: 100)
            makeFruit(context, "Pear", price: 200)
            try context.save()
        }
        try FileManager.default.removeItem(atPath: url.path + ".lock")
        return url
    }

    // MARK: - Loading

    @Test(arguments: FileKind.allCases)
    func aReadOnlyStoreLoadsWithoutWritingOrLocking(kind: FileKind) throws {
        let url = try makeSavedStore(kind)
        let before = try Data(contentsOf: url)
        let container = try PersistentContainer(
            model: TestModels.fruits, storeDescription: kind.description(url, readOnly: true))
        #expect(container.store.isReadOnly)
        let context = container.newContext()
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["Apple", "Pear"])
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
        #expect(try Data(contentsOf: url) == before)
        // Not locked: a writable container and a second read-only one open it too.
        let writer = try PersistentContainer(
            model: TestModels.fruits, storeDescription: kind.description(url, readOnly: false))
        let second = try PersistentContainer(
            model: TestModels.fruits, storeDescription: kind.description(url, readOnly: true))
        #expect(try second.newContext().count(for: Fruit.fetchRequest()) == 2)
        _ = writer
    }

    @Test(arguments: FileKind.allCases)
    func aReadOnlyStoreOpensAFileItCannotWrite(kind: FileKind) throws {
        let url = try makeSavedStore(kind)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        }
        let container = try PersistentContainer(
            model: TestModels.fruits, storeDescription: kind.description(url, readOnly: true))
        let context = container.newContext()
        #expect(try context.count(for: Fruit.fetchRequest()) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [kind.fileName])
    }

    @Test(arguments: FileKind.allCases)
    func aMissingFileIsAnErrorAndIsNotCreated(kind: FileKind) throws {
        let url = TemporaryDirectory.make().appendingPathComponent(kind.fileName)
        let error = try #require(throws: PersistenceError.self) {
            try PersistentContainer(model: TestModels.fruits, storeDescription: kind.description(url, readOnly: true))
        }
        #expect(error.code == .ioFailure && error.fileURL == url)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    // MARK: - Saving

    @Test(arguments: FileKind.allCases)
    func everySaveThrowsAndLeavesStoreAndContextUnchanged(kind: FileKind) throws {
        let url = try makeSavedStore(kind)
        let before = try Data(contentsOf: url)
        let container = try PersistentContainer(
            model: TestModels.fruits, storeDescription: kind.description(url, readOnly: true))
        let context = container.newContext()
        let apple = try #require(try context.fetch(Fruit.fetchRequest()).first)
        apple.price = 1
        makeFruit(context, "Quince")
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .readOnlyStore && error.fileURL == url)
        #expect(apple.price == 1 && apple.isUpdated && context.insertedObjects.count == 1)
        let batch = try #require(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(entityName: "Fruit"))
        }
        #expect(batch.code == .readOnlyStore)
        #expect(try Data(contentsOf: url) == before)
        let reader = container.newContext()
        #expect(try reader.fetch(Fruit.fetchRequest()).map(\.price) == [100, 200])
        context.rollback()
        try context.save()  // nothing to save: succeeds
    }

    @Test(arguments: [StoreDescription.inMemory, .discard])
    func readOnlyMemoryStoresRefuseSaves(description: StoreDescription) throws {
        var readOnly = description
        readOnly.isReadOnly = true
        #expect(readOnly.description.hasSuffix("read-only") && readOnly != description)
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: readOnly)
        let context = container.newContext()
        makeFruit(context, "Apple")
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .readOnlyStore)
        #expect(try context.count(for: Fruit.fetchRequest()) == 1)  // still pending in the context
    }

    @Test func storesAreWritableByDefault() throws {
        #expect(!StoreDescription.inMemory.isReadOnly)
        #expect(!InMemoryStore().isReadOnly && !DiscardStore().isReadOnly)
        #expect(!FailingStore().isReadOnly)  // a store of the user's own: the protocol's default
    }
}
