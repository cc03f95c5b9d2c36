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
        case integer16, integer32, integer64, float, double, date, string, boolean, decimal, binary, codable, uuid,
            uri, toOne, toMany
    }

    /// A slot, without references (so that reading one costs no reference counting).
    struct Slot {
        /// Where the slot's key, as written with its quotes (`"name"`), is in `keys`.
        let keyStart: Int
        let keyCount: Int
        let kind: Kind
        /// Whether `null` is a value (an optional attribute; a to-one relationship).
        let acceptsNull: Bool
    }

    /// The document's bytes. Unsafe for speed (no bounds check per byte): every read below
    /// checks the offset against `count` first, and the scanner lives only inside the
    /// `withUnsafeBufferPointer` call that made the pointer.
    let bytes: UnsafeBufferPointer<UInt8>
    let slots: [Slot]
    /// Every slot's key, quotes included, one after another.
    let keys: [UInt8]
    /// The destination entity of each relationship slot (empty for an attribute).
    let destinations: [String]

    private static let versionKey: StaticString = "\"$version\""

    init(bytes: UnsafeBufferPointer<UInt8>, info: EntityInfo) {
        self.bytes = bytes
        var keys: [UInt8] = []
        var slots: [Slot] = []
        var destinations: [String] = []
        for slot in 0..<info.propertyCount {
            let keyStart = keys.count
            keys += [UInt8(ascii: "\"")] + info.propertyNameBytes[slot] + [UInt8(ascii: "\"")]
            let kind: Kind
            let acceptsNull: Bool
            if info.isAttribute(slot) {
                let attribute = info.attribute(at: slot)
                acceptsNull = attribute.isOptional
                destinations.append("")
                switch attribute.type {
                case .integer16: kind = .integer16
                case .integer32: kind = .integer32
                case .integer64: kind = .integer64
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
            } else {
                let relationship = info.relationship(at: slot).description
                kind = relationship.isToMany ? .toMany : .toOne
                acceptsNull = !relationship.isToMany
                destinations.append(relationship.destination)
            }
            slots.append(
                Slot(keyStart: keyStart, keyCount: keys.count - keyStart, kind: kind, acceptsNull: acceptsNull))
        }
        self.keys = keys
        self.slots = slots
        self.destinations = destinations
        assert(JSONStoreDocument.versionKey == "$version")
    }

    /// The record whose object key starts at `start` (`"12": {"$version": 1, …}`): its key, its
    /// row and the offset just past its closing brace; `nil` if it is not in the plain form.
    func record(at start: Int) -> (key: Int64, row: EntityTable.Row, end: Int)? {
        var position = start
        guard let key = objectKey(&position), skipColon(&position), byte(at: position) == UInt8(ascii: "{")
        else { return nil }
        position += 1
        skipWhitespace(&position)
        guard literal(Self.versionKey, &position), skipColon(&position), let version = integer(&position)
        else { return nil }
        // Appended to a reserved array: `Array(unsafeUninitializedCapacity:)` allocates through
        // the unspecialized standard library (a metadata lookup per call, about 650 instructions).
        var values: [StoreValue] = []
        values.reserveCapacity(slots.count)
        let complete = slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                for index in 0..<slots.count {
                    let slot = slots[index]
                    skipWhitespace(&position)
                    guard byte(at: position) == UInt8(ascii: ","), skipComma(&position),
                        match(
                            UnsafeBufferPointer(rebasing: keys[slot.keyStart..<(slot.keyStart + slot.keyCount)]),
                            &position),
                        skipColon(&position), let value = value(of: slot, index: index, at: &position)
                    else { return false }
                    values.append(value)
                }
                return true
            }
        }
        guard complete else { return nil }
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

    /// Consumes a comma (just checked) and the whitespace after it.
    @inline(__always)
    private func skipComma(_ position: inout Int) -> Bool {
        position += 1
        skipWhitespace(&position)
        return true
    }

    /// Consumes `expected` if the bytes at `position` are exactly it.
    @inline(__always)
    private func match(_ expected: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Bool {
        guard bytes.count - position >= expected.count,
            memcmp(bytes.baseAddress! + position, expected.baseAddress!, expected.count) == 0
        else { return false }
        position += expected.count
        return true
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
    @inline(__always)
    private func double(_ position: inout Int) -> Double? {
        // The common spelling, `-?digits(.digits)?` with at most 15 significant digits and at
        // most 22 after the point, computed as it is scanned (Clinger's fast path, as
        // `JSONReader.exactDouble`); any other spelling goes through the token.
        var cursor = position
        let negative = byte(at: cursor) == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        let integerStart = cursor
        while cursor < bytes.count, bytes[cursor] &- 0x30 < 10 {
            if mantissa != 0 || bytes[cursor] != 0x30 { digits += 1 }
            mantissa = mantissa &* 10 &+ UInt64(bytes[cursor] &- 0x30)
            cursor += 1
        }
        if cursor > integerStart, byte(at: cursor) == UInt8(ascii: ".") {
            cursor += 1
            while cursor < bytes.count, bytes[cursor] &- 0x30 < 10 {
                if mantissa != 0 || bytes[cursor] != 0x30 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(bytes[cursor] &- 0x30)
                fractionDigits += 1
                cursor += 1
            }
        }
        if cursor > integerStart, digits <= 15, fractionDigits <= 22,
            byte(at: cursor - 1) != UInt8(ascii: "."), cursor == bytes.count || !JSONReader.isNumberByte(bytes[cursor])
        {
            var value = Double(mantissa)
            if fractionDigits > 0, mantissa != 0 { value /= JSONReader.exactPowerOfTen(fractionDigits) }
            position = cursor
            return negative ? -value : value
        }
        return tokenDouble(&position)
    }

    /// A number token of any other spelling, parsed as `JSONReader.readDouble()` parses it.
    private func tokenDouble(_ position: inout Int) -> Double? {
        var cursor = position
        while cursor < bytes.count, JSONReader.isNumberByte(bytes[cursor]) { cursor += 1 }
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

    /// The bytes of a string without escapes or control characters, and whether they are ASCII.
    @inline(__always)
    private func stringBytes(_ position: inout Int) -> (UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
        guard byte(at: position) == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var cursor = start
        // Eight bytes at a time while none is a quote, a backslash or a control character (the
        // tests are exact for "some byte of the word is"); then byte by byte.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var high: UInt64 = 0
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while bytes.count - cursor >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: cursor, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            high |= word
            cursor += 8
        }
        var highByte = UInt8(truncatingIfNeeded: (high & highs) != 0 ? 0x80 : 0)
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            highByte |= byte
            cursor += 1
        }
        guard byte(at: cursor) == UInt8(ascii: "\"") else { return nil }
        position = cursor + 1
        return (UnsafeBufferPointer(rebasing: bytes[start..<cursor]), highByte < 0x80)
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
    @inline(__always)
    private func value(of slot: Slot, index: Int, at position: inout Int) -> StoreValue? {
        if byte(at: position) == UInt8(ascii: "n") {
            guard slot.acceptsNull, literal("null", &position) else { return nil }
            return .null
        }
        switch slot.kind {
        case .integer64: return integer(&position).map { .int($0) }
        case .integer32:
            guard let number = integer(&position), Int32(exactly: number) != nil else { return nil }
            return .int(number)
        case .integer16:
            guard let number = integer(&position), Int16(exactly: number) != nil else { return nil }
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
        default: return rareValue(of: slot, index: index, at: &position)
        }
    }

    /// The values of the kinds that are slow to make anyway, kept out of the loop above.
    private func rareValue(of slot: Slot, index: Int, at position: inout Int) -> StoreValue? {
        var cursor = position
        let value: StoreValue?
        switch slot.kind {
        case .decimal: value = string(&cursor).flatMap { Decimal(storedText: $0) }.map { .decimal($0) }
        case .binary: value = string(&cursor).flatMap { Data(base64Encoded: $0) }.map { .data($0) }
        case .codable: value = string(&cursor).map { .data(Data($0.utf8)) }
        case .uri: value = string(&cursor).flatMap { URL(string: $0) }.map { .url($0) }
        case .toOne: value = integer(&cursor).map { .object(ObjectID(entityName: destinations[index], key: $0)) }
        case .toMany: value = objects(of: destinations[index], &cursor)
        default: value = nil
        }
        if value != nil { position = cursor }
        return value
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
