import Foundation

extension JSONStoreDocument {
    /// The schema and records of a JSON store document.
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat` for a file that is not a JSON store or
    ///   needs a newer version; `.modelMismatch` when its schema differs from `model`'s;
    ///   `.corruptStore` naming the byte offset and JSON path of anything malformed, a missing or
    ///   unknown key, a value of the wrong type, a duplicate object, or a relationship to an
    ///   object that does not exist.
    ///
    /// `known` is the document's schema as ``readSchema(of:url:)`` read it, if the caller did: its
    /// bytes are then not read again.
    static func decode(
        _ bytes: [UInt8], url: URL, model: ManagedObjectModel, known: ReadSchema? = nil
    ) throws -> StoreSnapshot {
        var reader = JSONReader(bytes: bytes, url: url)
        guard reader.peek() == UInt8(ascii: "{") else {
            throw PersistenceError.notAStore(url, expected: "a JSON store")
        }
        var snapshot = StoreSnapshot(model: model)
        var step = 0
        var fileVersion: Int64 = 1
        try reader.readObject(
            trying: { start in
                // The schema the caller read from these bytes is checked without reading it again.
                guard let known, start == known.keyOffset, step == 2 else { return nil }
                try StoreSchema.check(known.schema, against: model)
                step = 3
                return known.end
            }
        ) { reader, key in
            // Version 2 adds an optional "metadata" object at the end.
            let expected = ["format", "version", "schema", "entities"] + (fileVersion >= 2 ? ["metadata"] : [])
            guard step < expected.count, key == expected[step] else {
                throw reader.error("expected the key \"\(step < expected.count ? expected[step] : "}")\"")
            }
            step += 1
            switch key {
            case "format":
                guard try reader.readString() == formatName else {
                    throw PersistenceError.notAStore(url, expected: "a JSON store")
                }
            case "version":
                let version = try reader.readInt64()
                guard version <= Self.metadataVersion, version >= 1 else {
                    throw PersistenceError.unsupportedVersion(
                        url, version: Int(version), supported: Int(Self.metadataVersion))
                }
                fileVersion = version
            case "schema":
                try StoreSchema.check(try StoreSchema.read(from: &reader), against: model)
            case "entities":
                try readEntities(&reader, into: &snapshot)
            default:
                try reader.readObject { reader, key in snapshot.metadata[key] = try reader.readString() }
            }
        }
        guard step >= 4 else {
            throw reader.error("the key \"\(["format", "version", "schema", "entities"][step])\" is missing")
        }
        try reader.expectEnd()
        if let (source, key, target) = snapshot.danglingReferences().first {
            throw PersistenceError.corruptFile(
                url, offset: nil, "\(source).\(key) refers to \(target), which is not in the store")
        }
        return snapshot
    }

    /// The schema of a JSON store document, without reading its objects (for tools).
    static let versionKeyBytes = Array(versionKey.utf8)

    static func schema(of bytes: [UInt8], url: URL) throws -> [EntityDescription] {
        try readSchema(of: bytes, url: url).schema
    }

    /// A document's schema, with the offsets of its key and just past its value.
    struct ReadSchema {
        var schema: [EntityDescription]
        var keyOffset: Int
        var end: Int
    }

    /// The schema of a JSON store document and where it is, without reading its objects.
    static func readSchema(of bytes: [UInt8], url: URL) throws -> ReadSchema {
        var reader = JSONReader(bytes: bytes, url: url)
        var schema: [EntityDescription]?
        var keyOffset = 0
        try reader.expect(UInt8(ascii: "{"), "an object")
        while schema == nil {
            reader.skipWhitespace()
            keyOffset = reader.position
            let key = try reader.readString()
            try reader.expect(UInt8(ascii: ":"), "':'")
            switch key {
            case "format":
                guard try reader.readString() == formatName else {
                    throw PersistenceError.notAStore(url, expected: "a JSON store")
                }
            case "version": _ = try reader.readInt64()
            case "schema": schema = try StoreSchema.read(from: &reader)
            default: throw reader.error("expected the schema before \"\(key)\"")
            }
            if schema == nil { try reader.expect(UInt8(ascii: ","), "','") }
        }
        return ReadSchema(schema: schema ?? [], keyOffset: keyOffset, end: reader.position)
    }

    private static func readEntities(_ reader: inout JSONReader, into snapshot: inout StoreSnapshot) throws {
        var seen: Set<String> = []
        try reader.readObject { reader, name in
            guard let info = snapshot.model.info(named: name) else { throw reader.error("unknown entity \"\(name)\"") }
            seen.insert(name)
            var sawObjects = false
            var nextKey: Int64 = 1
            try reader.readObject { reader, key in
                switch key {
                case "nextKey":
                    let offset = reader.position
                    nextKey = try reader.readInt64()
                    guard nextKey >= 1, nextKey <= EntityTable.maxKey + 1 else {
                        throw reader.error("nextKey is out of range", at: offset)
                    }
                case "objects":
                    sawObjects = true
                    // Each record names its values by index (`JSONReader.leaf`), the version last.
                    reader.leafNames = (0..<info.propertyCount).map(info.propertyName) + [versionKey]
                    // Duplicate keys are found in the table rather than in a set of every key.
                    // Records in the form this library writes are read straight from the bytes
                    // (`JSONRecordScanner`); any other, and every error, by the reader.
                    let bytes = reader.bytes
                    try bytes.withUnsafeBufferPointer { buffer in
                        let scanner = JSONRecordScanner(bytes: buffer, info: info)
                        try reader.readObject(
                            checksDuplicates: false,
                            trying: { start in
                                guard let (key, row, end) = scanner.record(at: start),
                                    !snapshot.tables[info.index].contains(key),
                                    snapshot.keySpaceAdmits(key, table: info.index)
                                else { return nil }
                                snapshot.tables[info.index].append(row, forKey: key)
                                return end
                            }
                        ) { reader, key in
                            let offset = reader.position
                            guard let number = Int64(key), number >= 1, number <= EntityTable.maxKey,
                                String(number) == key
                            else { throw reader.error("\"\(key)\" is not a valid object key", at: offset) }
                            guard snapshot.tables[info.index][number] == nil else {
                                reader.path.removeLast()  // the error names the object, as the key's place
                                throw reader.error("the key \"\(key)\" appears twice", at: reader.keyOffset)
                            }
                            let record = try readRecord(&reader, key: number, info: info)
                            do {
                                try snapshot.insert(record)
                            } catch let error as PersistenceError {
                                throw reader.error(error.message, at: offset)
                            }
                        }
                    }
                default: throw reader.error("unknown key \"\(key)\"")
                }
            }
            guard sawObjects else { throw reader.error("the key \"objects\" is missing") }
            snapshot.reserveKeys(ofEntity: name, below: nextKey)
        }
        for info in snapshot.model.infos where !seen.contains(info.name) {
            throw reader.error("the entity \"\(info.name)\" is missing")
        }
    }

    private static func readRecord(_ reader: inout JSONReader, key: Int64, info: EntityInfo) throws -> StoreRecord {
        var values = info.defaultValues
        var version: Int64?
        // Fast path: the keys in the order this library writes them, matched as bytes; slots
        // `0..<inOrder` are read. Values are named by index (`JSONReader.leaf`), not by path.
        var inOrder = 0
        try reader.expect(UInt8(ascii: "{"), "an object")
        reader.leafDepth = reader.path.count
        var slot = -1
        while slot < info.propertyCount {
            let name = slot < 0 ? versionKeyBytes : info.propertyNameBytes[slot]
            guard reader.readKey(name) else { break }
            reader.leaf = slot < 0 ? info.propertyCount : slot
            if slot < 0 {
                version = try reader.readInt64()
            } else {
                values[slot] = try readValue(&reader, slot: slot, of: info)
                inOrder = slot + 1
            }
            reader.leaf = -1
            slot += 1
            guard reader.peek() == UInt8(ascii: ",") else { break }
            reader.skipByte()
        }
        var seen: [Bool] = []
        // General path: whatever keys remain, in any order.
        if reader.peek() != UInt8(ascii: "}") {
            seen = (0..<info.propertyCount).map { $0 < inOrder }
            while true {
                reader.skipWhitespace()
                let keyOffset = reader.position
                let property = try reader.readString()
                try reader.expect(UInt8(ascii: ":"), "':' after a key")
                if property == versionKey {
                    guard version == nil else {
                        throw reader.error("the key \"\(property)\" appears twice", at: keyOffset)
                    }
                    reader.path.append(property)
                    version = try reader.readInt64()
                    reader.path.removeLast()
                } else {
                    guard let slot = info.slotByName[property] else {
                        reader.path.append(property)
                        throw reader.error("entity \(info.name) has no property \"\(property)\"", at: keyOffset)
                    }
                    guard !seen[slot] else {
                        throw reader.error("the key \"\(property)\" appears twice", at: keyOffset)
                    }
                    seen[slot] = true
                    reader.path.append(property)
                    values[slot] = try readValue(&reader, slot: slot, of: info)
                    reader.path.removeLast()
                }
                guard reader.peek() == UInt8(ascii: ",") else { break }
                reader.skipByte()
            }
        }
        try reader.expect(UInt8(ascii: "}"), "',' or '}'")
        guard let version else { throw reader.error("the key \"\(versionKey)\" is missing") }
        if let missing = seen.isEmpty ? (inOrder < info.propertyCount ? inOrder : nil) : seen.firstIndex(of: false) {
            throw reader.error("the key \"\(info.propertyName(at: missing))\" is missing")
        }
        return StoreRecord(objectID: ObjectID(entityName: info.name, key: key), version: version, values: values)
    }

    private static func readValue(_ reader: inout JSONReader, slot: Int, of info: EntityInfo) throws -> StoreValue {
        reader.skipWhitespace()
        let offset = reader.position
        if !info.isAttribute(slot) {
            let resolved = info.relationship(at: slot)
            let relationship = resolved.description
            if relationship.isToMany {
                var ids: [ObjectID] = []
                try reader.readArray { reader, _ in
                    ids.append(try readReference(&reader, relationship: resolved, of: info))
                }
                if let duplicate = ObjectID.firstDuplicate(in: ids) {
                    throw reader.error(
                        "\(info.name).\(info.propertyName(at: slot)) lists \(duplicate) twice", at: offset)
                }
                return .objects(ids)
            }
            return reader.readNull() ? .null : .object(try readReference(&reader, relationship: resolved, of: info))
        }
        if reader.readNull() {
            // Saves never leave a required attribute null (validation refuses them) and typed
            // accessors trap on one, so in a file a null there is damage (a hand edit, say).
            guard info.attribute(at: slot).isOptional else {
                throw reader.error("the required attribute has no value", at: offset)
            }
            return .null
        }
        switch info.attribute(at: slot).type {
        case .string: return .string(try reader.readString())
        case .boolean: return .bool(try reader.readBool())
        case .integer16, .integer32, .integer64:
            let value = StoreValue.int(try reader.readInt64())
            guard info.attribute(at: slot).type.accepts(value) else {
                throw reader.error("integer out of range", at: offset)
            }
            return value
        case .float:
            let number = try reader.readDouble()
            guard !number.isFinite || Float(number).isFinite else {
                throw reader.error("float out of range", at: offset)
            }
            return .float(Float(number))
        case .double: return .double(try reader.readDouble())
        case .decimal:
            guard let number = Decimal(storedText: try reader.readString())
            else {
                throw reader.error("expected a decimal number in a string", at: offset)
            }
            return .decimal(number)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: try reader.readDouble()))
        case .binary:
            guard let data = Data(base64Encoded: try reader.readString()) else {
                throw reader.error("expected base64 data", at: offset)
            }
            return .data(data)
        case .codable: return .data(Data(try reader.readString().utf8))
        case .uuid:
            guard let uuid = UUIDText.parse(try reader.readString()) else {
                throw reader.error("expected a UUID", at: offset)
            }
            return .uuid(uuid)
        case .uri:
            guard let url = URL(string: try reader.readString()) else {
                throw reader.error("expected a URL", at: offset)
            }
            return .url(url)
        }
    }
}
