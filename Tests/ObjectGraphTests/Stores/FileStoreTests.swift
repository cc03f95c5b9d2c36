import Foundation
import Testing

@testable import ObjectGraph

/// Behaviour both file stores share: durability, locking, permissions, symlinks, schemas.
enum FileStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case json, binary

    var testDescription: String { rawValue }

    func makeStore(at url: URL) -> any PersistentStore {
        switch self {
        case .json: JSONFileStore(url: url)
        case .binary: BinaryFileStore(url: url)
        }
    }

    func makeURL() -> URL {
        TemporaryDirectory.make().appendingPathComponent(self == .json ? "fruits.json" : "fruits.ogdb")
    }
}

/// Saves three fruits in a basket through a new container on `url`, then lets it go.
func seed(_ kind: FileStoreKind, at url: URL) throws {
    let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
    let context = container.newContext()
    let basket = Basket(context: context)
    basket.label = "kitchen"
    for (name, price) in [("apple", 120), ("pear", 80), ("fig", 300)] {
        makeFruit(context, name, price: Int64(price)).basket = basket
    }
    try context.save()
}

func fruitNames(_ kind: FileStoreKind, at url: URL) throws -> [String] {
    let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
    return try container.newContext().fetch(Fruit.fetchRequest()).map(\.name)
}

@Suite struct FileStoreTests {
    @Test(arguments: FileStoreKind.allCases)
    func missingFileIsCreatedEmpty(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        #expect(try fruitNames(kind, at: url).isEmpty)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    @Test(arguments: FileStoreKind.allCases)
    func missingDirectoryIsAnErrorNamingIt(kind: FileStoreKind) throws {
        let directory = TemporaryDirectory.make().appendingPathComponent("absent")
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(
                model: TestModels.fruits, store: kind.makeStore(at: directory.appendingPathComponent("x.store")))
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains(directory.path) == true)
    }

    @Test(arguments: FileStoreKind.allCases)
    func dataSurvivesRelaunchWithRelationships(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
        let context = container.newContext()
        let baskets = try context.fetch(Basket.fetchRequest())
        #expect(baskets.count == 1)
        #expect(baskets[0].label == "kitchen")
        #expect(baskets[0].fruits.map(\.name).sorted() == ["apple", "fig", "pear"])
    }

    @Test(arguments: FileStoreKind.allCases)
    func secondOpenerGetsStoreLockedNamingTheFile(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        let first = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
        }
        #expect(error?.code == .storeLocked)
        #expect(error?.fileURL == url)
        #expect(error?.message.contains(url.path) == true)
        _ = first
    }

    @Test(arguments: FileStoreKind.allCases)
    func lockIsReleasedWhenTheContainerGoesAway(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        #expect(try fruitNames(kind, at: url).count == 3)
        #expect(try fruitNames(kind, at: url).count == 3)
    }

    @Test(arguments: FileStoreKind.allCases)
    func schemaChangeIsAModelMismatchListingTheDifferences(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let changed = try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", attributes: [AttributeDescription(name: "name", type: .integer64)])
        ])
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: changed, store: kind.makeStore(at: url))
        }
        #expect(error?.code == .modelMismatch)
        #expect(
            error?.detailedErrors.contains { $0.message.contains("'Basket' is in the store but not in the model") }
                == true)
        #expect(error?.detailedErrors.contains { $0.message.contains("'Fruit.name' is integer64") } == true)
        #expect(try fruitNames(kind, at: url).count == 3)
    }

    @Test(arguments: FileStoreKind.allCases)
    func existingPermissionsAreKept(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        for _ in 0..<3 { try seed(kind, at: url) }
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
    }

    @Test(arguments: FileStoreKind.allCases)
    func symlinkedPathIsResolvedToItsTarget(kind: FileStoreKind) throws {
        let target = kind.makeURL()
        try seed(kind, at: target)
        let link = TemporaryDirectory.make().appendingPathComponent("link." + target.pathExtension)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try seed(kind, at: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try fruitNames(kind, at: target).count == 6)
        let error = #expect(throws: PersistenceError.self) {
            let first = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: target))
            _ = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: link))
            _ = first
        }
        #expect(error?.code == .storeLocked)
    }

    @Test(arguments: FileStoreKind.allCases)
    func noTemporaryFileSurvivesAReopen(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let directory = url.deletingLastPathComponent()
        let leftover = directory.appendingPathComponent(".objectgraph-tmp-\(url.lastPathComponent)-dead")
        try Data("half a write".utf8).write(to: leftover)
        let unrelated = directory.appendingPathComponent(".objectgraph-tmp-other.json-1")
        try Data().write(to: unrelated)
        #expect(try fruitNames(kind, at: url).count == 3)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains(leftover.lastPathComponent))
        #expect(names.contains(unrelated.lastPathComponent))
        #expect(names.filter { $0.hasPrefix(".objectgraph-tmp-\(url.lastPathComponent)") }.isEmpty)
    }

    @Test(arguments: FileStoreKind.allCases)
    func failedWriteLeavesStoreAndContextAsTheyWere(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let fileSystem = FailingFileSystem()
        let store: any PersistentStore =
            kind == .json
            ? JSONFileStore(url: url, prettyPrinted: true, fileSystem: fileSystem)
            : BinaryFileStore(url: url, fileSystem: fileSystem)
        let before = try Data(contentsOf: url)
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            makeFruit(context, "kiwi")
            fileSystem.failSynchronize(true)
            let error = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(error?.code == .ioFailure)
            #expect(context.insertedObjects.count == 1)
            fileSystem.failSynchronize(false)
            #expect(try Data(contentsOf: url) == before)
        }
        #expect(try fruitNames(kind, at: url).sorted() == ["apple", "fig", "pear"])
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names.filter { $0.hasPrefix(".objectgraph-tmp-") }.isEmpty)
    }
}

/// The real file system, with `fsync` failing on demand (a disk that fills up or goes away).
final class FailingFileSystem: FileSystem {
    private let real = POSIXFileSystem()
    private let failing = Locked(false)

    func failSynchronize(_ fail: Bool) { failing.withLock { $0 = fail } }

    func open(_ path: String, flags: Int32, mode: mode_t) throws -> Int32 {
        try real.open(path, flags: flags, mode: mode)
    }
    func close(_ descriptor: Int32) { real.close(descriptor) }
    func size(_ descriptor: Int32, path: String) throws -> Int { try real.size(descriptor, path: path) }
    func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws -> [UInt8] {
        try real.read(descriptor, count: count, at: offset, path: path)
    }
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws {
        try real.write(descriptor, bytes, at: offset, path: path)
    }
    func synchronize(_ descriptor: Int32, path: String) throws {
        if failing.withLock({ $0 }) {
            errno = ENOSPC
            throw PersistenceError.io("fsync", path: path)
        }
        try real.synchronize(descriptor, path: path)
    }
    func truncate(_ descriptor: Int32, to size: Int, path: String) throws {
        try real.truncate(descriptor, to: size, path: path)
    }
    func rename(_ source: String, to destination: String) throws { try real.rename(source, to: destination) }
    func link(_ source: String, to destination: String) throws { try real.link(source, to: destination) }
    func remove(_ path: String) throws { try real.remove(path) }
    func fileType(_ descriptor: Int32, path: String) throws -> mode_t { try real.fileType(descriptor, path: path) }
    func entryStatus(_ path: String) -> (type: mode_t, owner: uid_t)? { real.entryStatus(path) }
    func permissions(of path: String) -> mode_t? { real.permissions(of: path) }
    func setPermissions(_ descriptor: Int32, _ mode: mode_t, path: String) throws {
        try real.setPermissions(descriptor, mode, path: path)
    }
    func contentsOfDirectory(_ path: String) throws -> [String] { try real.contentsOfDirectory(path) }
    func tryLock(_ descriptor: Int32) -> Bool { real.tryLock(descriptor) }
}
