import Foundation
import ObjectGraph
import Testing

@Suite struct DumpCommandTests {
    static let fruitLines = [
        #"{"entity":"Fruit","key":1,"version":1,"values":{"name":"apple","price":120,"note":null,"basket":1}}"#,
        #"{"entity":"Fruit","key":2,"version":2,"values":{"name":"pear","price":90,"note":null,"basket":1}}"#,
    ]

    static let basketLines = [
        #"{"entity":"Basket","key":1,"version":2,"values":{"label":"kitchen","fruits":[1,2]}}"#,
        #"{"entity":"Basket","key":2,"version":1,"values":{"label":"garden","fruits":[]}}"#,
    ]

    // MARK: - Lines

    @Test(arguments: StoreFileKind.allCases)
    func printsEveryObjectAsAJSONLineEntitiesByNameObjectsByKey(kind: StoreFileKind) throws {
        let url = try StoreFixtures.makeStore(kind)
        let run = objectgraph("dump", url.path)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let lines = run.outputLines
        #expect(lines.count == 5)
        #expect(Array(lines[0..<2]) == Self.basketLines)
        #expect(Array(lines[2..<4]) == Self.fruitLines)
        #expect(lines[4].hasPrefix(#"{"entity":"Sample","key":1,"version":1,"values":{"text":"#))
    }

    @Test func everyValueIsWrittenAsTheJSONStoreWritesIt() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let line = try #require(objectgraph("dump", url.path, "--entity", "Sample").outputLines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let values = try #require(object["values"] as? [String: Any])
        #expect(values["text"] as? String == "りんご \"quoted\"\nline\t\u{1}")
        #expect(values["flag"] as? Bool == true)
        #expect(values["small"] as? Int == Int(Int16.min))
        #expect(values["medium"] as? Int == -7)
        #expect(line.contains(#""large":9223372036854775807"#))
        #expect(line.contains(#""single":1.1,"real":-0.1,"amount":"12345.6789""#))
        #expect(values["date"] as? Double == 700_000_000.123_456)
        #expect(values["blob"] as? String == Data([0, 1, 2, 254, 255]).base64EncodedString())
        #expect(values["identifier"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(values["link"] as? String == "https://example.com/a?b=c&d=%20")
        #expect(values["payload"] as? String == #"{"farms":["a"],"rating":4.5}"#)
        #expect(values["missing"] is NSNull)
        #expect(values.count == 14)
    }

    @Test func jsonAndBinaryStoresOfTheSameDataDumpTheSame() throws {
        let binary = try StoreFixtures.makeStore(.binary)
        let json = binary.deletingLastPathComponent().appendingPathComponent("copy.json")
        #expect(objectgraph("convert", binary.path, json.path).status == 0)
        let binaryDump = objectgraph("dump", binary.path)
        #expect(binaryDump.outputLines.count == 5)
        #expect(objectgraph("dump", json.path).output == binaryDump.output)
    }

    @Test func emptyStorePrintsNothing() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("empty.json")
        _ = try PersistentContainer(model: StoreFixtures.model, storeDescription: .jsonFile(url))
        let run = objectgraph("dump", url.path)
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
    }

    // MARK: - --entity

    @Test func entityOptionPrintsOnlyThatEntity() throws {
        let url = try StoreFixtures.makeStore(.json)
        #expect(objectgraph("dump", url.path, "--entity", "Fruit").outputLines == Self.fruitLines)
        #expect(objectgraph("dump", "--entity=Basket", url.path).outputLines == Self.basketLines)
    }

    @Test func unknownEntityIsAnErrorListingTheEntities() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let run = objectgraph("dump", url.path, "--entity", "Vegetable")
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(
            run.error
                == "objectgraph dump: unknownEntity: The store file \(url.path) has no entity 'Vegetable'; "
                + "its entities are Basket, Fruit, Sample.\n")
    }

    // MARK: - Damage

    @Test func tornTailIsLeftOut() throws {
        let url = try StoreFixtures.makeStore(.binary)
        try StoreFixtures.appendSave(.binary, at: url)
        StoreFixtures.write(Array(StoreFixtures.bytes(url).dropLast(1)), to: url)
        #expect(objectgraph("dump", url.path, "--entity", "Fruit").outputLines == Self.fruitLines)
    }

    @Test func damagedJSONIsAnErrorWithItsOffset() throws {
        let url = try StoreFixtures.makeStore(.json)
        var text = String(decoding: StoreFixtures.bytes(url), as: UTF8.self)
        let range = try #require(text.range(of: "\"price\": 90"))
        text.replaceSubrange(range, with: "\"price\": \"90\"")
        StoreFixtures.write(Array(text.utf8), to: url)
        let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound) + "\"price\": ".utf8.count
        let run = objectgraph("dump", url.path)
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("is damaged at byte \(offset)"))
    }
}
