import Foundation

/// The elements a predicate sees in a codable attribute's stored JSON: the scalars of a JSON
/// array (`["a", "b"]` from a `[String]`), or the values of a JSON object (a `[String: Int]`).
///
/// Strings become strings, `true`/`false` Booleans, `null` a null, and numbers integers when
/// they are whole and within ±2⁵³, doubles otherwise. Nested arrays and objects are left out
/// (a predicate compares scalars), as is anything in a value that is not an array or object,
/// or JSON that does not parse: such a value has no elements.
enum CodableElements {
    static func decode(_ json: Data) -> [StoreValue] {
        var reader = JSONReader(bytes: [UInt8](json), url: URL(fileURLWithPath: "/"))
        var elements: [StoreValue] = []
        do {
            switch reader.peek() {
            case UInt8(ascii: "["):
                reader.skipByte()
                if reader.peek() == UInt8(ascii: "]") { return [] }
                repeat {
                    if let value = try scalar(&reader) { elements.append(value) }
                } while try separator(&reader, closing: UInt8(ascii: "]"))
            case UInt8(ascii: "{"):
                reader.skipByte()
                if reader.peek() == UInt8(ascii: "}") { return [] }
                repeat {
                    _ = try reader.readString()
                    try reader.expect(UInt8(ascii: ":"), "':'")
                    if let value = try scalar(&reader) { elements.append(value) }
                } while try separator(&reader, closing: UInt8(ascii: "}"))
            default:
                return []
            }
        } catch {
            return []
        }
        return elements
    }

    /// Consumes a `,` (returning true) or the closing bracket (returning false).
    private static func separator(_ reader: inout JSONReader, closing: UInt8) throws -> Bool {
        if reader.peek() == UInt8(ascii: ",") {
            reader.skipByte()
            return true
        }
        try reader.expect(closing, "',' or the closing bracket")
        return false
    }

    /// Reads one value: a scalar as a store value, a nested array or object skipped (`nil`).
    private static func scalar(_ reader: inout JSONReader) throws -> StoreValue? {
        switch reader.peek() {
        case UInt8(ascii: "\""): return .string(try reader.readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try reader.readBool())
        case UInt8(ascii: "n"):
            guard reader.readNull() else { throw reader.error("expected null") }
            return .null
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            try skipNested(&reader)
            return nil
        default:
            let number = try reader.readDouble()
            if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 { return .int(Int64(number)) }
            return .double(number)
        }
    }

    /// Skips a nested array or object, whatever it holds.
    private static func skipNested(_ reader: inout JSONReader) throws {
        let isArray = reader.peek() == UInt8(ascii: "[")
        let closing = isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")
        reader.skipByte()
        if reader.peek() == closing {
            reader.skipByte()
            return
        }
        repeat {
            if !isArray {
                _ = try reader.readString()
                try reader.expect(UInt8(ascii: ":"), "':'")
            }
            _ = try scalar(&reader)
        } while try separator(&reader, closing: closing)
    }
}
