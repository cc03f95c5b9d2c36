import Foundation
import ObjectGraph
import Testing

@Suite struct ConvertCommandTests {
    // MARK: - Both directions keep everything

    @Test(arguments: StoreFileKind.allCases)
    func convertKeepsEveryKeyVersionValueAndNextKey(kind: StoreFileKind) throws {
        let source = try StoreFixtures.makeStore(kind)
        let other: StoreFileKind = kind == .json ? .binary : .json
        let destination = source.deletingLastPathComponent().appendingPathComponent(
            other == .json ? "converted.json" : "converted.store")
        let run = objectgraph("convert", source.path, destination.path)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(
            run.output
                == "converted \(source.path) (\(kind), \(StoreFixtures.size(source)) bytes) to \(destination.path) "
                + "(\(other), \(StoreFixtures.size(destination)) bytes): 5 objects\n")
        #expect(try StoreFileInspector.kind(of: destination) == other)
        #expect(try StoreFixtures.contents(of: destination) == StoreFixtures.contents(of: source))
        #expect(objectgraph("verify", destination.path).output == "ok\n")
    }

    @Test func roundTripGivesBackTheSameData() throws {
        let original = try StoreFixtures.makeStore(.binary)
        let directory = original.deletingLastPathComponent()
        let json = directory.appendingPathComponent("a.json")
        let binary = directory.appendingPathComponent("b.store")
        #expect(objectgraph("convert", original.path, json.path).status == 0)
        #expect(objectgraph("convert", json.path, binary.path).status == 0)
        #expect(try StoreFixtures.contents(of: binary) == StoreFixtures.contents(of: original))
        // A conversion writes a compacted log: the same bytes compaction would give.
        #expect(objectgraph("compact", original.path).status == 0)
        #expect(StoreFixtures.bytes(binary) == StoreFixtures.bytes(original))
    }

    @Test func convertedStoreOpensWithTheAppModelAndKeepsAllocatingKeys() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let destination = source.deletingLastPathComponent().appendingPathComponent("fruits.json")
        #expect(objectgraph("convert", source.path, destination.path).status == 0)
        let container = try PersistentContainer(model: StoreFixtures.model, storeDescription: .jsonFile(destination))
        let context = container.newContext()
        let fruits = try context.fetch(FetchRequest<ManagedObject>(entityName: "Fruit"))
        #expect(Set(fruits.compactMap { (try? $0.value(forKey: "name")) as? String }) == ["apple", "pear"])
        let kiwi = StoreFixtures.insert("Fruit", ["name": "kiwi", "price": 10], into: context)
        #expect(kiwi.objectID.key == 4)  // the deleted fig's key 3 is never reused
    }

    @Test func destinationKindComesFromItsExtension() throws {
        let source = try StoreFixtures.makeStore(.json)
        let directory = source.deletingLastPathComponent()
        for (name, kind) in [
            ("a.JSON", StoreFileKind.json), ("b.db", .sqlite), ("c", .binary), ("d.json", .json),
            ("e.sqlite3", .sqlite),
        ] {
            let destination = directory.appendingPathComponent(name)
            #expect(objectgraph("convert", source.path, destination.path).status == 0)
            #expect(try StoreFileInspector.kind(of: destination) == kind, "\(name)")
        }
    }

    @Test func tornSourceIsConvertedWithoutItsIncompleteSaveAndAWarning() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(source)
        let expected = try StoreFixtures.contents(of: source)
        try StoreFixtures.appendSave(.binary, at: source)
        let torn = Array(StoreFixtures.bytes(source).dropLast(4))
        StoreFixtures.write(torn, to: source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("fruits.json")
        let run = objectgraph("convert", source.path, destination.path)
        #expect(run.status == 0)
        #expect(
            run.error
                == "objectgraph convert: warning: left out an incomplete last save of \(source.path) "
                + "(\(torn.count - boundary) bytes from byte \(boundary))\n")
        #expect(try StoreFixtures.contents(of: destination) == expected)
        #expect(StoreFixtures.bytes(source) == torn)
    }

    // MARK: - Refusals

    @Test func existingDestinationIsKeptWithoutForceAndReplacedWithIt() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let destination = source.deletingLastPathComponent().appendingPathComponent("existing.json")
        StoreFixtures.write(Array("keep me".utf8), to: destination)
        let refused = objectgraph("convert", source.path, destination.path)
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "objectgraph convert: ioFailure: The file \(destination.path) already exists. Choose another "
                + "destination, or allow replacing it.\n")
        #expect(StoreFixtures.bytes(destination) == Array("keep me".utf8))
        let forced = objectgraph("convert", "--force", source.path, destination.path)
        #expect(forced.status == 0)
        #expect(try StoreFixtures.contents(of: destination) == StoreFixtures.contents(of: source))
    }

    @Test func destinationThatIsTheSourceIsRefusedEvenWithForce() throws {
        let source = try StoreFixtures.makeStore(.json)
        let bytes = StoreFixtures.bytes(source)
        let sameThroughDots = source.deletingLastPathComponent().appendingPathComponent("./fruits.json")
        let run = objectgraph("convert", source.path, sameThroughDots.path, "--force")
        #expect(run.status == 1)
        #expect(run.error.contains("is the source file itself"))
        #expect(StoreFixtures.bytes(source) == bytes)
    }

    @Test func destinationOpenInAContainerIsRefused() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let destination = try StoreFixtures.makeStore(.json)
        let bytes = StoreFixtures.bytes(destination)
        let container = try PersistentContainer(model: StoreFixtures.model, storeDescription: .jsonFile(destination))
        let run = objectgraph("convert", source.path, destination.path, "--force")
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("objectgraph convert: storeLocked: The store \(destination.path) is open"))
        #expect(StoreFixtures.bytes(destination) == bytes)
        withExtendedLifetime(container) {}
    }

    @Test func missingSourceWritesNothing() throws {
        let directory = TemporaryDirectory.make()
        let run = objectgraph(
            "convert", directory.appendingPathComponent("absent.store").path,
            directory.appendingPathComponent("new.json").path)
        #expect(run.status == 1)
        #expect(run.error.contains("absent.store does not exist"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func destinationInAMissingDirectoryIsAnError() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let missing = source.deletingLastPathComponent().appendingPathComponent("absent")
        let run = objectgraph("convert", source.path, missing.appendingPathComponent("new.json").path)
        #expect(run.status == 1)
        #expect(run.error.contains("The directory \(missing.path) of the store new.json does not exist"))
    }

    @Test func destinationThatIsADirectoryIsRefused() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let directory = source.deletingLastPathComponent().appendingPathComponent("folder.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let run = objectgraph("convert", source.path, directory.path, "--force")
        #expect(run.status == 1)
        #expect(run.error.contains("is a directory, not a store file"))
    }
}
