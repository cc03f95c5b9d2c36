import Foundation

/// Reads the records of one entity of a JSON store document straight from the file's bytes, when
/// they are in the form this library writes: the keys in the written order, keys and strings
/// without escapes, values each in their one plain spelling.
///
/// It never reports an error: anything else (an escape, keys in another order, a number that
/// does not fit, a duplicate, damage of any kind) makes it read nothing, and the caller reads the
/// record with `JSONReader`, which reads every form and reports every error with its path and
/// offset. So a record the scanner reads is one the reader reads to the same key and values,
/// and one it does not is read as it was before the scanner existed.
struct JSONRecordScanner {
    /// How a slot's value is spelled and what it becomes.
    enum Kind {
        case integer(ClosedRange<Int64>)
        case float, double, date, string, boolean, decimal, binary, codable, uuid, uri
        case toOne(String)
        case toMany(String)
    }

    struct Slot {
        /// The key as written, quotes included (`"name"`).
        let key: [UInt8]
        let kind: Kind
        /// Whether `null` is a value (an optional attribute; a to-one relationship).
        let acceptsNull: Bool
    }

    /// The document's bytes. Unsafe for speed (no bounds check per byte): every read below
    /// checks the offset against `count` first, and the scanner lives only inside the
    /// `withUnsafeBufferPointer` call that made the pointer.
    let bytes: UnsafeBufferPointer<UInt8>
    let slots: [Slot]

    private static let versionKey = Array("\"\(JSONStoreDocument.versionKey)\"".utf8)

    init(bytes: UnsafeBufferPointer<UInt8>, info: EntityInfo) {
        self.bytes = bytes
        slots = (0..<info.propertyCount).map { slot in
            let key = [UInt8(ascii: "\"")] + info.propertyNameBytes[slot] + [UInt8(ascii: "\"")]
            guard info.isAttribute(slot) else {
                let relationship = info.relationship(at: slot).description
                return relationship.isToMany
                    ? Slot(key: key, kind: .toMany(relationship.destination), acceptsNull: false)
                    : Slot(key: key, kind: .toOne(relationship.destination), acceptsNull: true)
            }
            let attribute = info.attribute(at: slot)
            let kind: Kind
            switch attribute.type {
            case .integer16: kind = .integer(Int64(Int16.min)...Int64(Int16.max))
            case .integer32: kind = .integer(Int64(Int32.min)...Int64(Int32.max))
            case .integer64: kind = .integer(Int64.min...Int64.max)
            case .float: kind = .float
            case .double: kind = .double
            case .date: kind = .date
            case .string: kind = .string
            case .boolean: kind = .boolean
            case .decimal: kind = .decimal
            case .binary: kind = .binary
            case .codable: kind = .codable
            case .uuid: kind = .uuid
            case .uri: kind = .uri
            }
            return Slot(key: key, kind: kind, acceptsNull: attribute.isOptional)
        }
    }

    /// The record whose object key starts at `start` (`"12": {"$version": 1, …}`): its key, its
    /// row and the offset just past its closing brace; `nil` if it is not in the plain form.
    func record(at start: Int) -> (key: Int64, row: EntityTable.Row, end: Int)? {
        var position = start
        guard let key = objectKey(&position), skipColon(&position), byte(at: position) == UInt8(ascii: "{")
        else { return nil }
        position += 1
        skipWhitespace(&position)
        guard match(Self.versionKey, at: &position), skipColon(&position), let version = integer(&position)
        else { return nil }
        var values: [StoreValue] = []
        values.reserveCapacity(slots.count)
        for slot in slots {
            skipWhitespace(&position)
            guard byte(at: position) == UInt8(ascii: ",") else { return nil }
            position += 1
            skipWhitespace(&position)
            guard match(slot.key, at: &position), skipColon(&position), let value = value(of: slot, at: &position)
            else { return nil }
            values.append(value)
        }
        skipWhitespace(&position)
        guard byte(at: position) == UInt8(ascii: "}") else { return nil }
        return (key, EntityTable.Row(version: version, values: values), position + 1)
    }

    // MARK: - Tokens

    @inline(__always)
    private func byte(at position: Int) -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    @inline(__always)
    private func skipWhitespace(_ position: inout Int) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace, a colon and whitespace; false if there is no colon.
    @inline(__always)
    private func skipColon(_ position: inout Int) -> Bool {
        skipWhitespace(&position)
        guard byte(at: position) == UInt8(ascii: ":") else { return false }
        position += 1
        skipWhitespace(&position)
        return true
    }

    /// Consumes `expected` if the bytes at `position` are exactly it.
    @inline(__always)
    private func match(_ expected: [UInt8], at position: inout Int) -> Bool {
        guard bytes.count - position >= expected.count else { return false }
        let matches = expected.withUnsafeBufferPointer { expected in
            memcmp(bytes.baseAddress! + position, expected.baseAddress!, expected.count) == 0
        }
        if matches { position += expected.count }
        return matches
    }

    /// An object key in its one canonical spelling, `"1"` to `"4294967296"` without leading zeros.
    private func objectKey(_ position: inout Int) -> Int64? {
        guard byte(at: position) == UInt8(ascii: "\""), let first = byte(at: position + 1), first > 0x30, first <= 0x39
        else { return nil }
        var cursor = position + 1
        var key: Int64 = 0
        while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39, cursor - position <= 10 {
            key = key * 10 + Int64(bytes[cursor] - 0x30)
            cursor += 1
        }
        guard key <= EntityTable.maxKey, byte(at: cursor) == UInt8(ascii: "\"") else { return nil }
        position = cursor + 1
        return key
    }

    /// An integer as `JSONReader.readInt64()` reads it, when that succeeds.
    private func integer(_ position: inout Int) -> Int64? {
        var cursor = position
        let negative = byte(at: cursor) == UInt8(ascii: "-")
        if negative { cursor += 1 }
        let digitsStart = cursor
        var magnitude: UInt64 = 0
        while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[cursor] - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            cursor += 1
        }
        guard cursor > digitsStart else { return nil }
        switch byte(at: cursor) {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: break
        }
        let value: Int64
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            value = magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        } else {
            guard magnitude <= UInt64(Int64.max) else { return nil }
            value = Int64(magnitude)
        }
        position = cursor
        return value
    }

    /// A number as `JSONReader.readDouble()` reads it (not its quoted `"NaN"` forms).
    private func double(_ position: inout Int) -> Double? {
        var cursor = position
        while cursor < bytes.count, Self.isNumberByte(bytes[cursor]) { cursor += 1 }
        let token = UnsafeBufferPointer(rebasing: bytes[position..<cursor])
        guard !token.isEmpty else { return nil }
        if let exact = JSONReader.exactDouble(token) {
            position = cursor
            return exact
        }
        guard let value = Double(String(decoding: token, as: UTF8.self)), value.isFinite else { return nil }
        position = cursor
        return value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// The bytes of a string without escapes or control characters, and whether they are ASCII.
    private func stringBytes(_ position: inout Int) -> (UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
        guard byte(at: position) == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var cursor = start
        var high: UInt8 = 0
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            cursor += 1
        }
        guard byte(at: cursor) == UInt8(ascii: "\"") else { return nil }
        position = cursor + 1
        return (UnsafeBufferPointer(rebasing: bytes[start..<cursor]), high < 0x80)
    }

    /// A string as `JSONReader.readString()` reads it, when it has no escapes.
    private func string(_ position: inout Int) -> String? {
        var cursor = position
        guard let (text, isASCII) = stringBytes(&cursor) else { return nil }
        // ASCII is valid UTF-8 as it is.
        guard let string = isASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        else { return nil }
        position = cursor
        return string
    }

    /// Consumes `literal` (`null`, `true`, `false`) if it comes next.
    @inline(__always)
    private func literal(_ literal: StaticString, _ position: inout Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count, memcmp(bytes.baseAddress! + position, literal.utf8Start, count) == 0
        else { return false }
        position += count
        return true
    }

    // MARK: - Values

    /// A slot's value as `JSONStoreDocument.readValue` reads it, when the scanner can.
    private func value(of slot: Slot, at position: inout Int) -> StoreValue? {
        if byte(at: position) == UInt8(ascii: "n") {
            guard slot.acceptsNull, literal("null", &position) else { return nil }
            return .null
        }
        switch slot.kind {
        case .integer(let range):
            guard let number = integer(&position), range.contains(number) else { return nil }
            return .int(number)
        case .double: return double(&position).map { .double($0) }
        case .date: return double(&position).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .float:
            guard let number = double(&position), Float(number).isFinite else { return nil }
            return .float(Float(number))
        case .string: return string(&position).map { .string($0) }
        case .boolean:
            if literal("true", &position) { return .bool(true) }
            return literal("false", &position) ? .bool(false) : nil
        case .uuid:
            var cursor = position
            guard let (text, _) = stringBytes(&cursor), let uuid = UUIDText.parse(utf8: text) else { return nil }
            position = cursor
            return .uuid(uuid)
        case .decimal:
            var cursor = position
            guard let text = string(&cursor), let number = Decimal(storedText: text) else { return nil }
            position = cursor
            return .decimal(number)
        case .binary:
            var cursor = position
            guard let text = string(&cursor), let data = Data(base64Encoded: text) else { return nil }
            position = cursor
            return .data(data)
        case .codable: return string(&position).map { .data(Data($0.utf8)) }
        case .uri:
            var cursor = position
            guard let text = string(&cursor), let url = URL(string: text) else { return nil }
            position = cursor
            return .url(url)
        case .toOne(let destination):
            return integer(&position).map { .object(ObjectID(entityName: destination, key: $0)) }
        case .toMany(let destination):
            return objects(of: destination, &position)
        }
    }

    /// A to-many relationship's array of keys (not the `["Entity", key]` form), without
    /// duplicates.
    private func objects(of destination: String, _ position: inout Int) -> StoreValue? {
        guard byte(at: position) == UInt8(ascii: "[") else { return nil }
        var cursor = position + 1
        var ids: [ObjectID] = []
        skipWhitespace(&cursor)
        if byte(at: cursor) != UInt8(ascii: "]") {
            while true {
                guard let key = integer(&cursor) else { return nil }
                ids.append(ObjectID(entityName: destination, key: key))
                skipWhitespace(&cursor)
                guard byte(at: cursor) == UInt8(ascii: ",") else { break }
                cursor += 1
                skipWhitespace(&cursor)
            }
        }
        guard byte(at: cursor) == UInt8(ascii: "]"), ObjectID.firstDuplicate(in: ids) == nil else { return nil }
        position = cursor + 1
        return .objects(ids)
    }
}
