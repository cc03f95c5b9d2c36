import Foundation

/// Reads JSON text from bytes, one value at a time, as the caller expects them. Every error is a
/// `corruptStore` error naming the file, the byte offset and the JSON path being read.
struct JSONReader {
    let bytes: [UInt8]
    let url: URL
    private(set) var position = 0
    /// The JSON path of the value being read, for error messages (`entities.Fruit.objects.12.name`).
    var path: [String] = []
    /// The name of the value being read, as an index into `leafNames` (`-1` for none), placed in
    /// error messages after the first `leafDepth` components of `path`: a reader of many records
    /// names each value by storing an integer instead of appending to `path`.
    var leaf = -1
    var leafNames: [String] = []
    var leafDepth = 0
    /// The byte offset of the key `readObject` passed to its body last.
    private(set) var keyOffset = 0

    init(bytes: [UInt8], url: URL) {
        self.bytes = bytes
        self.url = url
    }

    func error(_ reason: String, at offset: Int? = nil) -> PersistenceError {
        var path = path
        if leaf >= 0, leaf < leafNames.count { path.insert(leafNames[leaf], at: Swift.min(leafDepth, path.count)) }
        let place = path.isEmpty ? "" : " (JSON path \(PersistenceError.excerpt(path.joined(separator: "."))))"
        return .corruptFile(url, offset: offset ?? position, reason + place)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next significant byte, without consuming it.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes one byte (after `peek()` showed it).
    mutating func skipByte() { position += 1 }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else {
            throw error(position < bytes.count ? "expected \(what)" : "the document ends early; expected \(what)")
        }
        position += 1
    }

    /// Reads `null` if it comes next; returns whether it did.
    mutating func readNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), bytes[position...].starts(with: Self.nullBytes) else { return false }
        position += 4
        return true
    }

    mutating func readBool() throws -> Bool {
        if peek() == UInt8(ascii: "t"), bytes[position...].starts(with: Self.trueBytes) {
            position += 4
            return true
        }
        if peek() == UInt8(ascii: "f"), bytes[position...].starts(with: Self.falseBytes) {
            position += 5
            return false
        }
        throw error("expected true or false")
    }

    /// Reads an integer exactly, rejecting fractions, exponents and values outside Int64.
    mutating func readInt64() throws -> Int64 {
        skipWhitespace()
        let start = position
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var magnitude: UInt64 = 0
        var digits = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[position] - 0x30))
            guard !overflow1, !overflow2 else { throw error("integer out of range", at: start) }
            magnitude = sum
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw error("expected an integer", at: start) }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
            throw error("expected an integer, found a fraction or exponent", at: start)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw error("integer out of range", at: start) }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw error("integer out of range", at: start) }
        return Int64(magnitude)
    }

    /// Reads a number (or "NaN", "Infinity", "-Infinity" as strings) as a Double.
    mutating func readDouble() throws -> Double {
        if peek() == UInt8(ascii: "\"") {
            let start = position
            switch try readString() {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: throw error("expected a number", at: start)
            }
        }
        let start = position
        let token = numberToken()
        if let exact = Self.exactDouble(token) { return exact }
        // Short tokens become small strings, which do not allocate.
        guard !token.isEmpty, let value = Double(String(decoding: token, as: UTF8.self)), value.isFinite else {
            throw error("expected a number", at: start)
        }
        return value
    }

    /// Reads a string, decoding escapes; invalid UTF-8 and unpaired surrogates are errors.
    mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        // Fast path: no escapes.
        while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") {
            guard bytes[position] >= 0x20 else { throw error("control character in a string") }
            position += 1
        }
        guard position < bytes.count else { throw error("the document ends inside a string", at: start) }
        if bytes[position] == UInt8(ascii: "\"") {
            position += 1
            return try decodeUTF8(bytes[start..<(position - 1)], at: start)
        }
        var buffer = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try decodeUTF8(buffer[...], at: start)
            case UInt8(ascii: "\\"):
                try readEscape(into: &buffer)
            case 0..<0x20:
                throw error("control character in a string", at: position - 1)
            default:
                buffer.append(byte)
            }
        }
        throw error("the document ends inside a string", at: start)
    }

    private mutating func readEscape(into buffer: inout [UInt8]) throws {
        guard position < bytes.count else { throw error("the document ends inside an escape") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate in a string escape") }
                position += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in a string escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired surrogate in a string escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid escaped character") }
            buffer.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw error("invalid escape \\\(Character(Unicode.Scalar(escape)))", at: position - 2)
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("the document ends inside an escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func decodeUTF8(_ slice: ArraySlice<UInt8>, at offset: Int) throws -> String {
        // ASCII (most keys and values) is valid UTF-8 as it is: made without the generic validator.
        let ascii = slice.withUnsafeBufferPointer { buffer in
            buffer.allSatisfy { $0 < 0x80 } ? String(decoding: buffer, as: UTF8.self) : nil
        }
        if let ascii { return ascii }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw error("invalid UTF-8 in a string", at: offset)
        }
        return string
    }

    /// Calls `body` with each key of an object, positioned at its value; the body must read it.
    /// Duplicate keys are errors, unless `checksDuplicates` is false because the caller detects
    /// them itself.
    mutating func readObject(checksDuplicates: Bool = true, _ body: (inout JSONReader, String) throws -> Void) throws {
        try readObject(checksDuplicates: checksDuplicates, trying: { _ in nil }, body)
    }

    /// As ``readObject(checksDuplicates:_:)``, first offering each member to `member`: given the
    /// offset of the member's key, it returns the offset just past the member's value if it read
    /// the member itself, or `nil` to leave it to `body` (a fast path for members in a form it
    /// knows, which must read nothing else and report no error about the bytes). Members `member`
    /// reads are not in the duplicate check: a caller that passes one checks duplicates itself.
    mutating func readObject(
        checksDuplicates: Bool = true, trying member: (Int) throws -> Int?,
        _ body: (inout JSONReader, String) throws -> Void
    ) throws {
        try expect(UInt8(ascii: "{"), "an object")
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var seen: Set<String> = []
        while true {
            // Skip whitespace first so that errors point at the key and the value themselves, not
            // at the whitespace before them (bodies report errors at `position` on entry).
            skipWhitespace()
            if let end = try member(position) {
                position = end
            } else {
                keyOffset = position
                let key = try readString()
                if checksDuplicates {
                    guard seen.insert(key).inserted else {
                        throw error("the key \"\(key)\" appears twice", at: keyOffset)
                    }
                }
                try expect(UInt8(ascii: ":"), "':' after a key")
                skipWhitespace()
                path.append(key)
                try body(&self, key)
                path.removeLast()
            }
            guard let next = peek() else { throw error("the document ends inside an object") }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or '}'", at: position - 1) }
        }
    }

    /// Calls `body` for each element of an array, positioned at it; the body must read it.
    mutating func readArray(_ body: (inout JSONReader, Int) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        var index = 0
        while true {
            skipWhitespace()  // so that the body's errors point at the element, as in readObject
            path.append(String(index))
            try body(&self, index)
            path.removeLast()
            index += 1
            guard let next = peek() else { throw error("the document ends inside an array") }
            position += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']'", at: position - 1) }
        }
    }

    /// Consumes `"key":` if the next string is exactly `key` (as UTF-8 without escapes, followed by
    /// a colon); otherwise consumes nothing and returns false. Lets a reader that expects keys in
    /// a known order skip allocating them.
    mutating func readKey(_ key: [UInt8]) -> Bool {
        guard peek() == UInt8(ascii: "\""), position + key.count + 1 < bytes.count else { return false }
        let start = position + 1
        for index in 0..<key.count where bytes[start + index] != key[index] { return false }
        guard bytes[start + key.count] == UInt8(ascii: "\"") else { return false }
        position = start + key.count + 1
        guard peek() == UInt8(ascii: ":") else {
            position = start - 1
            return false
        }
        position += 1
        return true
    }

    /// The bytes of the next number token, for parsing without allocating.
    mutating func numberToken() -> ArraySlice<UInt8> {
        skipWhitespace()
        let start = position
        while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
        return bytes[start..<position]
    }

    /// Checks that nothing but whitespace follows.
    mutating func expectEnd() throws {
        guard peek() == nil else { throw error("unexpected data after the document") }
    }

    /// Whether `byte` can be part of a JSON number (the record scanner stops where the reader does).
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            true
        default: false
        }
    }

    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}
