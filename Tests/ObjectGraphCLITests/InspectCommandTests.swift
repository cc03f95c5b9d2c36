import Foundation
import ObjectGraph
import Testing

@Suite struct InspectCommandTests {
    // MARK: - What it shows

    @Test(arguments: StoreFileKind.allCases)
    func showsKindVersionSizeSchemaAndCounts(kind: StoreFileKind) throws {
        let url = try StoreFixtures.makeStore(kind)
        let run = objectgraph("inspect", url.path)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let lines = run.outputLines
        #expect(lines[0] == "file:     \(url.path)")
        #expect(lines[1] == "kind:     \(kind), format version \(kind == .sqlite ? 2 : 1)")
        #expect(lines[2] == "size:     \(StoreFixtures.size(url)) bytes")
        #expect(lines.contains("objects:  5 in 3 entities"))
        #expect(lines.contains("frames:   3") == (kind == .binary))
        #expect(!run.output.contains("torn:"))
        let expected = [
            "entity Sample: 1 object, next key 2",
            "  text: string",
            "  flag: boolean",
            "  small: integer16",
            "  medium: integer32",
            "  large: integer64",
            "  single: float",
            "  real: double",
            "  amount: decimal",
            "  date: date",
            "  blob: binary",
            "  identifier: uuid",
            "  link: uri",
            "  payload: codable",
            "  missing: double, optional",
            "",
            "entity Fruit: 2 objects, next key 4",
            "  name: string, indexed",
            "  price: integer64",
            "  note: string, optional",
            "  basket: to-one Basket, inverse fruits, delete rule nullify",
            "  unique (name)",
            "",
            "entity Basket: 2 objects, next key 3",
            "  label: string",
            "  fruits: ordered to-many Fruit, inverse basket, delete rule cascade",
        ]
        #expect(Array(lines.suffix(expected.count)) == expected)
    }

    @Test func kindComesFromTheContentsNotTheName() throws {
        let binary = try StoreFixtures.makeStore(.binary, named: "misnamed.json")
        #expect(objectgraph("inspect", binary.path).outputLines[1] == "kind:     binary store, format version 1")
        let json = try StoreFixtures.makeStore(.json)
        let renamed = json.deletingLastPathComponent().appendingPathComponent("misnamed.store")
        try FileManager.default.moveItem(at: json, to: renamed)
        #expect(objectgraph("inspect", renamed.path).outputLines[1] == "kind:     JSON store, format version 1")
    }

    @Test func emptyStoreHasNoObjects() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("empty.store")
        _ = try PersistentContainer(model: StoreFixtures.model, storeDescription: .binaryFile(url))
        let run = objectgraph("inspect", url.path)
        #expect(run.status == 0)
        #expect(run.outputLines.contains("objects:  0 in 3 entities"))
        #expect(run.outputLines.contains("frames:   1"))
        #expect(run.outputLines.contains("entity Fruit: 0 objects, next key 1"))
    }

    // MARK: - Damage

    @Test func tornTailIsShownWithItsOffsetAndTheCompleteSavesAreCounted() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        try StoreFixtures.appendSave(.binary, at: url)
        let bytes = StoreFixtures.bytes(url)
        StoreFixtures.write(Array(bytes.dropLast(3)), to: url)
        let run = objectgraph("inspect", url.path)
        #expect(run.status == 0)
        #expect(
            run.outputLines.contains(
                "torn:     \(bytes.count - 3 - boundary) bytes from byte \(boundary) are an incomplete save; "
                    + "opening the store or 'objectgraph compact' cuts them off"))
        #expect(run.outputLines.contains("frames:   3"))
        #expect(run.outputLines.contains("entity Fruit: 2 objects, next key 4"))
    }

    @Test func damageInTheMiddleOfTheLogIsAnErrorWithItsOffset() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        try StoreFixtures.appendSave(.binary, at: url)
        try StoreFixtures.appendSave(.binary, at: url, name: "red apple")
        var bytes = StoreFixtures.bytes(url)
        bytes[boundary + 10] ^= 0xFF
        StoreFixtures.write(bytes, to: url)
        let run = objectgraph("inspect", url.path)
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("is damaged at byte \(boundary): a frame's checksum does not match"))
    }

    // MARK: - Read-only

    @Test(arguments: StoreFileKind.allCases)
    func readingCommandsNeverChangeTheFileOrItsDirectory(kind: StoreFileKind) throws {
        let url = try StoreFixtures.makeStore(kind)
        if kind == .binary {
            try StoreFixtures.appendSave(kind, at: url)
            StoreFixtures.write(Array(StoreFixtures.bytes(url).dropLast(2)), to: url)
        }
        let bytes = StoreFixtures.bytes(url)
        let listing = StoreFixtures.directoryListing(url)
        let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        for command in ["inspect", "dump", "verify"] {
            _ = objectgraph(command, url.path)
            #expect(StoreFixtures.bytes(url) == bytes, "\(command)")
            #expect(StoreFixtures.directoryListing(url) == listing, "\(command)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date == modified)
    }
}
