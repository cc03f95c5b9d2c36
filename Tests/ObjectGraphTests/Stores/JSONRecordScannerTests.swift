import Foundation
import Testing

@testable import ObjectGraph

/// `JSONRecordScanner` reads the records of a JSON store document in the form the store writes
/// them, straight from the bytes; anything else it leaves to `JSONReader`. Each record it reads
/// must have the values the reader gives, and the document the same snapshot.
@Suite struct JSONRecordScannerTests {
    let url = URL(fileURLWithPath: "/scanned/samples.json")
    /// Every attribute type (a `codable` value is JSON in a string, so always escaped: it is
    /// optional here and null unless a test sets it).
    static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Sample",
            attributes: [
                AttributeDescription(name: "text", type: .string, defaultValue: .string("default")),
                AttributeDescription(name: "flag", type: .boolean, defaultValue: .bool(false)),
                AttributeDescription(name: "small", type: .integer16, defaultValue: .int(0)),
                AttributeDescription(name: "medium", type: .integer32, defaultValue: .int(0)),
                AttributeDescription(name: "large", type: .integer64, defaultValue: .int(0)),
                AttributeDescription(name: "count", type: .integer64, defaultValue: .int(0)),
                AttributeDescription(name: "single", type: .float, defaultValue: .float(0)),
                AttributeDescription(name: "real", type: .double, defaultValue: .double(0)),
                AttributeDescription(name: "amount", type: .decimal, defaultValue: .decimal(0)),
                AttributeDescription(
                    name: "date", type: .date, defaultValue: .date(Date(timeIntervalSinceReferenceDate: 0))),
                AttributeDescription(name: "blob", type: .binary, defaultValue: .data(Data())),
                AttributeDescription(
                    name: "identifier", type: .uuid,
                    defaultValue: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))),
                AttributeDescription(name: "link", type: .uri, defaultValue: .url(URL(string: "https://example.com")!)),
                AttributeDescription(name: "origin", type: .codable, isOptional: true),
                AttributeDescription(name: "optionalText", type: .string, isOptional: true),
                AttributeDescription(name: "optionalNumber", type: .integer64, isOptional: true),
                AttributeDescription(name: "optionalDate", type: .date, isOptional: true),
                AttributeDescription(name: "required", type: .string, defaultValue: .string("r")),
            ])
    ])
    var model: ManagedObjectModel { Self.model }
    var info: EntityInfo { model.info(named: "Sample")! }

    /// A sample's values: the defaults, with `changes` by property name.
    func values(_ changes: [String: StoreValue]) -> [StoreValue] {
        var values = info.defaultValues
        values[info.slotByName["required"]!] = .string("r")
        for (name, value) in changes { values[info.slotByName[name]!] = value }
        return values
    }

    /// A snapshot of samples with the given values, keys 1, 2, ….
    func snapshot(_ rows: [[StoreValue]]) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot(model: model)
        for (index, values) in rows.enumerated() {
            try snapshot.insert(
                StoreRecord(
                    objectID: ObjectID(entityName: "Sample", key: Int64(index + 1)), version: Int64(index) - 3,
                    values: values))
        }
        return snapshot
    }

    /// What the scanner makes of the record that starts at the first `"<key>": {` in `bytes`.
    func scan(_ bytes: [UInt8], key: Int64 = 1) throws -> (key: Int64, row: EntityTable.Row)? {
        let start = try #require(bytes.offset(of: "\"\(key)\":"))
        return bytes.withUnsafeBufferPointer { buffer in
            JSONRecordScanner(bytes: buffer, info: info).record(at: start).map { ($0.key, $0.row) }
        }
    }

    /// A one-sample document whose record is `record` (`{"$version": …}`), as `"1": record`.
    func document(withRecord record: String) throws -> [UInt8] {
        let text = try #require(
            String(bytes: JSONStoreDocument.encode(try snapshot([values([:])]), pretty: true), encoding: .utf8))
        let start = try #require(text.range(of: "\"1\": {"))
        let end = try #require(text[start.upperBound...].range(of: "}\n"))
        return Array((text[..<start.lowerBound] + "\"1\": " + record + text[end.upperBound...]).utf8)
    }

    // MARK: - Records in the written form

    @Test func scannerReadsEveryAttributeTypeAsWritten() throws {
        let edges: [[String: StoreValue]] = [
            [:],
            [
                "text": .string("plain ASCII, longer than eight bytes"), "flag": .bool(true),
                "small": .int(Int64(Int16.min)), "medium": .int(Int64(Int32.max)), "large": .int(.min),
                "count": .int(.max), "single": .float(-1.5), "real": .double(0.1),
                "amount": .decimal(Decimal(string: "12.345")!),
                "date": .date(Date(timeIntervalSinceReferenceDate: -978_307_200.25)),
                "blob": .data(Data([0, 1, 254, 255])),
                "identifier": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
                "link": .url(URL(string: "https://example.com/a?b=c")!), "optionalText": .string("é ü — 日本 🍎"),
                "optionalNumber": .int(-7), "optionalDate": .date(Date(timeIntervalSinceReferenceDate: 1e9)),
            ],
            [
                "text": .string(""), "small": .int(Int64(Int16.max)), "medium": .int(Int64(Int32.min)),
                "real": .double(-0.0), "single": .float(.greatestFiniteMagnitude), "count": .int(0),
                "optionalText": .string("12345678"),
            ],
            [
                "real": .double(1.7976931348623157e308), "single": .float(.leastNonzeroMagnitude),
                "date": .date(Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude)), "text": .string("1234567"),
            ],
            ["real": .double(123_456_789_012_345.6), "text": .string("123456789"), "optionalNumber": .int(1)],
            [
                "real": .double(0.30000000000000004), "single": .float(0.1),
                "date": .date(Date(timeIntervalSinceReferenceDate: 12.5)),
            ],
        ]
        let written = try snapshot(edges.map(values))
        for pretty in [true, false] {
            let bytes = JSONStoreDocument.encode(written, pretty: pretty)
            for (index, changes) in edges.enumerated() {
                let key = Int64(index + 1)
                let scanned = try #require(try scan(bytes, key: key), "record \(key), pretty: \(pretty)")
                #expect(scanned.key == key)
                #expect(scanned.row.version == Int64(index) - 3)
                #expect(scanned.row.values == values(changes), "record \(key), pretty: \(pretty)")
            }
            let read = try JSONStoreDocument.decode(bytes, url: url, model: model)
            #expect(contents(of: read) == contents(of: written))
        }
    }

    @Test func scannerReadsRelationshipsAsWritten() throws {
        let model = TestModels.fruits
        var snapshot = StoreSnapshot(model: model)
        try snapshot.insert(
            StoreRecord(
                objectID: ObjectID(entityName: "Basket", key: 1), version: 1,
                values: [
                    .string("b"),
                    .objects([ObjectID(entityName: "Fruit", key: 1), ObjectID(entityName: "Fruit", key: 2)]), .null,
                ]))
        try snapshot.insert(
            StoreRecord(
                objectID: ObjectID(entityName: "Fruit", key: 1), version: 1,
                values: [.string("apple"), .int(3), .object(ObjectID(entityName: "Basket", key: 1)), .objects([])]))
        try snapshot.insert(
            StoreRecord(
                objectID: ObjectID(entityName: "Fruit", key: 2), version: 1,
                values: [.string("pear"), .int(4), .object(ObjectID(entityName: "Basket", key: 1)), .objects([])]))
        let bytes = JSONStoreDocument.encode(snapshot, pretty: true)
        let fruit = try #require(model.info(named: "Fruit"))
        let basket = try #require(model.info(named: "Basket"))
        let basketStart = try #require(bytes.offset(of: "\"1\": {\"$version\": 1, \"label\""))
        let fruitStart = try #require(bytes.offset(of: "\"2\": {\"$version\": 1, \"name\""))
        bytes.withUnsafeBufferPointer { buffer in
            let scannedBasket = JSONRecordScanner(bytes: buffer, info: basket).record(at: basketStart)
            #expect(scannedBasket?.row.values == snapshot.record(for: ObjectID(entityName: "Basket", key: 1))?.values)
            let scannedFruit = JSONRecordScanner(bytes: buffer, info: fruit).record(at: fruitStart)
            #expect(scannedFruit?.row.values == snapshot.record(for: ObjectID(entityName: "Fruit", key: 2))?.values)
        }
        #expect(contents(of: try JSONStoreDocument.decode(bytes, url: url, model: model)) == contents(of: snapshot))
    }

    @Test func stringsWithAQuoteBackslashControlOrNonASCIIByteAtAnyOffsetReadAsTheReaderReadsThem() throws {
        // Every offset around the eight-byte steps of the scan, for each kind of byte.
        for special in ["\"", "\\", "\n", "\u{1}", "é", "🍎", "\u{7F}"] {
            for length in 0..<20 {
                for offset in 0...length {
                    var characters = Array(repeating: "a", count: length)
                    characters.insert(special, at: offset)
                    let text = characters.joined()
                    let written = try snapshot([values(["text": .string(text)])])
                    let bytes = JSONStoreDocument.encode(written, pretty: false)
                    let read = try JSONStoreDocument.decode(bytes, url: url, model: model)
                    #expect(
                        read.record(for: ObjectID(entityName: "Sample", key: 1))?.values
                            == values(["text": .string(text)]))
                    // Escaped strings are left to the reader; the others are scanned.
                    let escaped = special == "\"" || special == "\\" || special == "\n" || special == "\u{1}"
                    #expect((try scan(bytes) == nil) == escaped, "\(text.debugDescription)")
                }
            }
        }
    }

    // MARK: - Other forms, left to the reader

    @Test func recordsInAnyOtherFormAreLeftToTheReader() throws {
        let written = String(
            decoding: JSONStoreDocument.encode(try snapshot([values([:])]), pretty: true), as: UTF8.self)
        let line = try #require(written.split(separator: "\n").first { $0.contains("\"1\": {") })
        let record = String(line.drop { $0 != "{" })
        #expect(try scan(try document(withRecord: record)) != nil)
        // Each variant spells the same record otherwise, or damages it.
        let variants: [(String, String)] = [
            ("\"$version\": -3", "\"$version\": -3.0"),
            ("\"text\": \"default\"", "\"text\": \"defa\\u0075lt\""),
            ("\"text\": \"default\"", "\"text\": \"default\", \"text\": \"default\""),
            ("\"small\": 0", "\"small\": 32768"),
            ("\"small\": 0", "\"small\": 1e2"),
            ("\"medium\": 0", "\"medium\": -2147483649"),
            ("\"large\": 0", "\"large\": 9223372036854775808"),
            ("\"real\": 0.0", "\"real\": \"NaN\""),
            ("\"real\": 0.0", "\"real\": 1e999"),
            ("\"single\": 0.0", "\"single\": 1e39"),
            ("\"flag\": false", "\"flag\": fals"),
            (
                "\"identifier\": \"00000000-0000-0000-0000-000000000000\"",
                "\"identifier\": \"00000000-0000-0000-0000-00000000000g\""
            ),
            (
                "\"identifier\": \"00000000-0000-0000-0000-000000000000\"",
                "\"identifier\": \"00000000+0000-0000-0000-000000000000\""
            ),
            ("\"required\": \"r\"", "\"required\": null"),
            ("\"$version\": -3, ", ""),
            ("{\"$version\": -3, \"text\": \"default\"", "{\"text\": \"default\", \"$version\": -3"),
            ("}", ", \"extra\": 1}"),
        ]
        for (original, replacement) in variants {
            let range = try #require(record.range(of: original), "\(original)")
            let variant = record.replacingCharacters(in: range, with: replacement)
            let bytes = try document(withRecord: variant)
            #expect(try scan(bytes) == nil, "\(variant)")
        }
        // Object keys only in their one canonical spelling, 1...maxKey.
        for key in ["01", "0", "-1", "4294967297", "99999999999", "1 ", "\\u0031"] {
            let bytes = Array(("{\"\(key)\": " + record + "}").utf8)
            let scanned = bytes.withUnsafeBufferPointer { buffer in
                JSONRecordScanner(bytes: buffer, info: info).record(at: 1)
            }
            #expect(scanned == nil, "\(key)")
        }
        let canonical = Array(("{\"4294967296\": " + record + "}").utf8)
        #expect(
            canonical.withUnsafeBufferPointer { JSONRecordScanner(bytes: $0, info: info).record(at: 1)?.key } == 1 << 32
        )
    }

    @Test func documentMixingScannedAndReaderRecordsReadsEveryRecord() throws {
        let written = try snapshot((0..<6).map { values(["text": .string("item \($0)"), "count": .int(Int64($0))]) })
        var text = String(decoding: JSONStoreDocument.encode(written, pretty: true), as: UTF8.self)
        // Records 3 and 6 with an escape, record 4 with its keys in another order.
        text = text.replacingOccurrences(of: "\"item 2\"", with: "\"item \\u0032\"")
        text = text.replacingOccurrences(of: "\"item 5\"", with: "\"item \\u0035\"")
        text =
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                guard line.contains("{\"$version\": 0, ") else { return String(line) }
                return line.replacingOccurrences(of: "{\"$version\": 0, ", with: "{")
                    .replacingOccurrences(of: "}", with: ", \"$version\": 0}")
            }.joined(separator: "\n")
        #expect(text.contains(", \"$version\": 0}"))
        let read = try JSONStoreDocument.decode(Array(text.utf8), url: url, model: model)
        #expect(contents(of: read) == contents(of: written))
    }

    @Test func duplicateObjectKeyAfterAScannedRecordIsReportedAtTheSecondKey() throws {
        let written = String(
            decoding: JSONStoreDocument.encode(try snapshot([values([:])]), pretty: true), as: UTF8.self)
        let line = try #require(written.split(separator: "\n").first { $0.contains("\"1\": {") })
        let text = written.replacingOccurrences(of: String(line), with: String(line) + ",\n" + String(line))
        let bytes = Array(text.utf8)
        let first = try #require(bytes.offset(of: "\"1\": {"))
        let second = try #require(bytes.offset(of: "\"1\": {", from: first + 1))
        let error = #expect(throws: PersistenceError.self) {
            try JSONStoreDocument.decode(bytes, url: url, model: model)
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.byteOffset == second)
        #expect(error?.message.contains("the key \"1\" appears twice") == true)
    }

    // MARK: - UUIDs from bytes

    @Test func uuidBytesParseOnlyTheCanonicalFormInEitherCase() {
        let valid = [
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
            "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        ]
        for text in valid {
            #expect(UUIDText.parse(text) != nil && UUIDText.parse(text) == UUID(uuidString: text), "\(text)")
        }
        // Each byte replaced by a hex digit (the bounds of each range) or by a byte just outside
        // a range, a dash, or a byte that is not ASCII: only a digit in a digit's place and a dash
        // in a dash's place parse (Foundation on Linux accepts more, so it is not the reference).
        let base = Array("E621E1F8-C36C-495A-93FC-0C247A3E6E5F".utf8)
        let dashes: Set<Int> = [8, 13, 18, 23]
        let digits = Array("09afAF".utf8)
        for offset in base.indices {
            for byte: UInt8 in digits + [0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x2D, 0xC3, 0x00, 0x20] {
                var bytes = base
                bytes[offset] = byte
                let text = String(decoding: bytes, as: UTF8.self)
                let parsed = bytes.withUnsafeBufferPointer { UUIDText.parse(utf8: $0) }
                let isValid = dashes.contains(offset) ? byte == UInt8(ascii: "-") : digits.contains(byte)
                #expect(parsed == (isValid ? UUID(uuidString: text) : nil), "\(text.debugDescription)")
                #expect(isValid == (parsed != nil), "\(text.debugDescription)")
            }
        }
        for count in [0, 35, 37] {
            let bytes = Array(repeating: UInt8(ascii: "0"), count: count)
            #expect(bytes.withUnsafeBufferPointer { UUIDText.parse(utf8: $0) } == nil)
        }
    }
}
