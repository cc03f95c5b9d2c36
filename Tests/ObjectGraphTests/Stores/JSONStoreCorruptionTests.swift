import Foundation
import Testing

@testable import ObjectGraph

/// Damaged JSON store documents: each gives a typed error naming the file, the byte offset and,
/// inside the objects, the JSON path of the damage. Nothing crashes, and the file is left as it was.
@Suite struct JSONStoreCorruptionTests {
    /// A pretty-printed store of three fruits in a basket, written by a real container.
    struct Reference {
        let bytes: [UInt8]

        init() throws {
            let url = FileStoreKind.json.makeURL()
            try seed(.json, at: url)
            bytes = Array(try Data(contentsOf: url))
        }

        /// The line of the fruit named `name`: its object key and the range from the key's opening
        /// quote to the object's closing brace.
        func fruit(_ name: String) throws -> (key: String, range: Range<Int>) {
            let name = try #require(bytes.offset(of: "\"name\": \"\(name)\""))
            let newline = try #require(bytes[..<name].lastIndex(of: UInt8(ascii: "\n")))
            let start = try #require(bytes[newline...].firstIndex(of: UInt8(ascii: "\"")))
            let end = try #require(bytes[name...].firstIndex(of: UInt8(ascii: "}"))) + 1
            let key = String(decoding: bytes[(start + 1)...].prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
            return (key, start..<end)
        }

        /// The offset of the value of `property` in the fruit named `name`, and the value's end.
        func value(of property: String, inFruit name: String) throws -> Range<Int> {
            let line = try fruit(name).range
            let label = try #require(bytes.offset(of: "\"\(property)\": ", from: line.lowerBound))
            let start = label + property.utf8.count + 4
            let end = try #require(
                bytes[start...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") })
            return start..<end
        }
    }

    let url = URL(fileURLWithPath: "/damaged/fruits.json")

    // MARK: - Truncation

    @Test func truncationAtEveryOffsetIsATypedErrorAtOrBeforeTheCut() throws {
        let reference = try Reference()
        let bytes = reference.bytes
        let whole = contents(of: try JSONStoreDocument.decode(bytes, url: url, model: TestModels.fruits))
        let apple = try reference.fruit("apple")
        let whitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            if bytes[cut...].allSatisfy(whitespace.contains) {
                // Only trailing whitespace is cut: the same document.
                let snapshot = try JSONStoreDocument.decode(prefix, url: url, model: TestModels.fruits)
                #expect(contents(of: snapshot) == whole)
                continue
            }
            let error = #expect(throws: PersistenceError.self, "cut at \(cut)") {
                try JSONStoreDocument.decode(prefix, url: url, model: TestModels.fruits)
            }
            guard let error else { continue }
            #expect(error.fileURL == url)
            if cut == 0 {
                #expect(error.code == .unsupportedFormat && error.byteOffset == 0, "cut at \(cut): \(error)")
                continue
            }
            #expect(error.code == .corruptStore, "cut at \(cut): \(error)")
            let offset = try #require(error.byteOffset, "cut at \(cut): \(error)")
            #expect((0...cut).contains(offset), "cut at \(cut): \(error)")
            if cut > apple.range.lowerBound + apple.key.utf8.count + 4, cut < apple.range.upperBound {
                #expect(
                    error.message.contains("(JSON path entities.Fruit.objects.\(apple.key)"), "cut at \(cut): \(error)")
            }
        }
    }

    @Test func truncatedDocumentIsCorruptStoreOnOpen() throws {
        let reference = try Reference()
        let pear = try reference.fruit("pear")
        let cut = pear.range.lowerBound + pear.key.utf8.count + 5  // just after the object's "{"
        let error = try openingError(.json, Array(reference.bytes[..<cut]))
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == cut)
        #expect(error.message.contains("the document ends early; expected a string"))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(pear.key))"))
    }

    // MARK: - Format and version

    @Test func emptyFileIsUnsupportedFormat() throws {
        let error = try openingError(.json, [])
        #expect(error.code == .unsupportedFormat)
        #expect(error.byteOffset == 0)
        #expect(error.message.contains("is not a JSON store"))
    }

    @Test func wrongFormatNameIsUnsupportedFormat() throws {
        let reference = try Reference()
        let name = try #require(reference.bytes.offset(of: "\"objectgraph-json\""))
        let error = try openingError(
            .json, reference.bytes.replacing(name..<(name + 18), with: "\"objectgraph-yaml\""))
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("is not a JSON store"))
    }

    @Test func binaryStoreOpenedAsJSONIsUnsupportedFormat() throws {
        let store = try BinaryReferenceStore.make()
        let error = try openingError(.json, store.bytes)
        #expect(error.code == .unsupportedFormat)
        #expect(error.byteOffset == 0)
    }

    @Test func futureFormatVersionIsUnsupportedFormatNamingTheVersion() throws {
        let reference = try Reference()
        let version = try #require(reference.bytes.offset(of: "\"version\": 1,"))
        let error = try openingError(
            .json, reference.bytes.replacing(version..<(version + 13), with: "\"version\": 3,"))
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("needs format version 3"))
        #expect(error.message.contains("reads up to 2"))
    }

    // MARK: - Values

    @Test func invalidUTF8InAStringIsCorruptStoreAtTheString() throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: "name", inFruit: "apple")
        var bytes = reference.bytes
        bytes[value.lowerBound + 2] = 0xFF
        let error = try openingError(.json, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == value.lowerBound + 1, "the string's first byte, after its quote")
        #expect(error.message.contains("invalid UTF-8 in a string"))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(apple.key).name)"))
    }

    @Test(arguments: ["$version", "price", "basket"])
    func missingKeyIsCorruptStoreNamingItsObject(key: String) throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: key, inFruit: "apple")
        let label = value.lowerBound - key.utf8.count - 4
        // Remove `"key": value` and one comma next to it.
        let removed =
            reference.bytes[value.upperBound] == UInt8(ascii: ",")
            ? label..<(value.upperBound + 2) : (label - 2)..<value.upperBound
        let bytes = reference.bytes.replacing(removed, with: "")
        let error = try openingError(.json, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("the key \"\(key)\" is missing"))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(apple.key))"))
        #expect(error.byteOffset == apple.range.upperBound - removed.count, "just after the object")
    }

    @Test(arguments: [
        ("price", "\"120\"", "expected an integer"), ("name", "12", "expected a string"),
        ("basket", "true", "expected an integer"), ("tags", "{}", "expected an array"),
        ("price", "1.5", "expected an integer, found a fraction"),
        ("price", "99999999999999999999", "integer out of range"),
        // Typed accessors trap on a null in a required attribute: the loader must refuse it.
        ("name", "null", "the required attribute has no value"),
    ])
    func valueOfTheWrongTypeIsCorruptStoreAtTheValue(key: String, replacement: String, message: String) throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: key, inFruit: "apple")
        let error = try openingError(.json, reference.bytes.replacing(value, with: replacement))
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == value.lowerBound)
        #expect(error.message.contains(message))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(apple.key).\(key))"))
    }

    /// A version is a change counter compared for equality: the largest one a file can hold
    /// wraps at the next save instead of trapping, and the save after that still succeeds.
    @Test func largestVersionInAFileSavesWithoutTrapping() throws {
        let reference = try Reference()
        let version = try reference.value(of: "$version", inFruit: "apple")
        let url = FileStoreKind.json.makeURL()
        try Data(reference.bytes.replacing(version, with: String(Int64.max))).write(to: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: FileStoreKind.json.makeStore(at: url))
        let context = container.newContext()
        let apple = try #require(try context.fetch(Fruit.fetchRequest()).first { $0.name == "apple" })
        apple.price += 1
        try context.save()
        apple.price += 1
        try context.save()
        let reader = container.newContext()
        let saved = try #require(try reader.fetch(Fruit.fetchRequest()).first { $0.name == "apple" })
        #expect(saved.price == apple.price)
    }

    // MARK: - Keys and references

    @Test func objectKeyThatAppearsTwiceIsCorruptStoreAtTheSecond() throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let line = String(decoding: reference.bytes[apple.range], as: UTF8.self)
        let start = apple.range.lowerBound
        let bytes = reference.bytes.replacing(start..<start, with: line + ", ")
        let error = try openingError(.json, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == start + line.utf8.count + 2)
        #expect(error.message.contains("the key \"\(apple.key)\" appears twice"))
        #expect(error.message.contains("(JSON path entities.Fruit.objects)"))
    }

    @Test func propertyThatAppearsTwiceIsCorruptStoreAtTheSecond() throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: "price", inFruit: "apple")
        let bytes = reference.bytes.replacing(value.upperBound..<value.upperBound, with: ", \"price\": 7")
        let error = try openingError(.json, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == value.upperBound + 2)
        #expect(error.message.contains("the key \"price\" appears twice"))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(apple.key))"))
    }

    @Test func unknownPropertyIsCorruptStoreNamingIt() throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: "price", inFruit: "apple")
        let bytes = reference.bytes.replacing(value.upperBound..<value.upperBound, with: ", \"colour\": 7")
        let error = try openingError(.json, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("entity Fruit has no property \"colour\""))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(apple.key).colour)"))
    }

    @Test func elementOfTheWrongTypeInAToManyRelationshipIsCorruptStoreAtItsIndex() throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: "tags", inFruit: "apple")
        let error = try openingError(.json, reference.bytes.replacing(value, with: "[\"x\"]"))
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == value.lowerBound + 1)
        #expect(error.message.contains("expected an integer"))
        #expect(error.message.contains("(JSON path entities.Fruit.objects.\(apple.key).tags.0)"))
    }

    @Test func toOneRelationshipToAMissingObjectIsCorruptStoreNamingBoth() throws {
        let reference = try Reference()
        let apple = try reference.fruit("apple")
        let value = try reference.value(of: "basket", inFruit: "apple")
        let error = try openingError(.json, reference.bytes.replacing(value, with: "99"))
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("Fruit/\(apple.key).basket refers to Basket/99, which is not in the store"))
    }

    @Test func toManyRelationshipToAMissingObjectIsCorruptStoreNamingBoth() throws {
        let reference = try Reference()
        let fruits = try #require(reference.bytes.offset(of: "\"fruits\": ["))
        let list = fruits + 11
        let end = try #require(reference.bytes[list...].firstIndex(of: UInt8(ascii: "]")))
        let error = try openingError(.json, reference.bytes.replacing(list..<end, with: "1, 77"))
        #expect(error.code == .corruptStore)
        #expect(error.message.contains(".fruits refers to Fruit/77, which is not in the store"))
    }
}
