import Foundation

/// The fixed encoding of each attribute type in a SQL column, chosen so that SQL's comparisons
/// and `ORDER BY` agree with the in-memory engine wherever they can.
///
/// | Attribute type | Column | Encoding | Compares in SQL |
/// |---|---|---|---|
/// | `boolean` | integer | 0 or 1 | yes |
/// | `integer16/32/64` | integer | the value | yes |
/// | `float`, `double` | exact real | the IEEE value; a `NaN` as its bit pattern (a blob) | yes, except `NaN` |
/// | `date` | exact real | seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`) | yes |
/// | `string` | text | UTF-8 | `==`, `<`, `BETWEEN` byte-wise (equals the engine's order for NFC text); not `[c]`/`[d]` |
/// | `decimal` | text | `Decimal.description` (`NaN` for NaN), exact | no: evaluated in memory |
/// | `uuid` | blob | its 16 bytes | `==` and `IN` only |
/// | `uri` | text | `absoluteString` | `==` and `IN` only |
/// | `binary`, `codable` | blob | the bytes (an empty blob is not `NULL`) | `==` only |
///
/// `nil` is SQL `NULL` for every type; a to-one relationship is the destination's key.
enum SQLColumnCoding {
    /// The column type that holds `type`.
    static func columnType(_ type: AttributeType) -> SQLColumnType {
        switch type {
        case .boolean, .integer16, .integer32, .integer64: .integer
        case .float, .double, .date: .exactReal
        case .string, .decimal, .uri: .text
        case .binary, .codable, .uuid: .blob
        }
    }

    /// Whether SQL's `=`, `<` and `ORDER BY` on the column agree with the in-memory engine for
    /// every value but `NaN`; the query translator pushes down only comparisons of such columns.
    static func comparesInSQL(_ type: AttributeType) -> Bool {
        switch type {
        case .boolean, .integer16, .integer32, .integer64, .float, .double, .date, .string: true
        case .decimal, .uri, .binary, .codable, .uuid: false
        }
    }

    /// `value` as the column for an attribute stores it in a database of `dialect`.
    ///
    /// A `NaN` is kept bit for bit: as its bit pattern (a blob) where a real column cannot hold
    /// it (SQLite); where it can (PostgreSQL), a double `NaN` as itself, and a float `NaN` as
    /// the double `NaN` whose low 32 bits are the float's (``floatNaNMarker`` above them).
    static func encode(_ value: StoreValue, in dialect: SQLDialect = .sqlite) -> SQLValue {
        switch value {
        case .null: .null
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .int(let number): .integer(number)
        case .float(let number) where number.isNaN:
            dialect.realHoldsNaN
                ? .real(Double(bitPattern: floatNaNMarker | UInt64(number.bitPattern)))
                : .blob(bytes(of: number.bitPattern))
        case .float(let number): .real(Double(number))
        case .double(let number): real(number, dialect)
        case .date(let date): real(date.timeIntervalSinceReferenceDate, dialect)
        case .string(let text): .text(dialect.textHoldsNUL ? text : escapingNUL(text))
        case .decimal(let number): .text(number.description)
        case .data(let data): .blob([UInt8](data))
        case .uuid(let uuid): .blob(withUnsafeBytes(of: uuid.uuid) { [UInt8]($0) })
        case .url(let url): .text(url.absoluteString)
        case .object(let id): .integer(id.key)
        case .objects: .null
        }
    }

    /// The attribute value a column of a database of `dialect` holds, or `nil` if it does not
    /// hold a valid `type`.
    static func decode(_ value: SQLValue, as type: AttributeType, in dialect: SQLDialect = .sqlite) -> StoreValue? {
        switch (type, value) {
        case (_, .null): return .null
        case (.boolean, .integer(let number)) where number == 0 || number == 1: return .bool(number == 1)
        case (.integer16, .integer(let number)) where Int16(exactly: number) != nil: return .int(number)
        case (.integer32, .integer(let number)) where Int32(exactly: number) != nil: return .int(number)
        case (.integer64, .integer(let number)): return .int(number)
        case (.float, .real(let number)) where number.isNaN:
            return number.bitPattern & 0xFFFF_FFFF_0000_0000 == floatNaNMarker
                ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: number.bitPattern))) : .float(Float(number))
        case (.float, .real(let number)):
            let narrowed = Float(number)
            return Double(narrowed).bitPattern == number.bitPattern ? .float(narrowed) : nil
        case (.float, .integer(let number)):
            return Float(exactly: number).map { .float($0) }
        case (.float, .blob(let bytes)) where bytes.count == 4:
            return .float(Float(bitPattern: UInt32(littleEndian: load(bytes))))
        case (.double, _), (.date, _):
            guard let number = double(value) else { return nil }
            return type == .date ? .date(Date(timeIntervalSinceReferenceDate: number)) : .double(number)
        case (.string, .text(let text)):
            return dialect.textHoldsNUL ? .string(text) : unescapingNUL(text).map { .string($0) }
        case (.decimal, .text(let text)): return Decimal(storedText: text).map { .decimal($0) }
        case (.binary, .blob(let bytes)), (.codable, .blob(let bytes)): return .data(Data(bytes))
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            return .uuid(UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
        case (.uri, .text(let text)): return URL(string: text).map { .url($0) }
        default: return nil
        }
    }

    /// The high 32 bits of the double that stands for a float `NaN` in a real column (a quiet
    /// `NaN`): a float column holds no other `NaN` the store writes, so decoding is unambiguous.
    static let floatNaNMarker: UInt64 = 0x7FF8_0001_0000_0000

    private static func real(_ number: Double, _ dialect: SQLDialect) -> SQLValue {
        number.isNaN && !dialect.realHoldsNaN ? .blob(bytes(of: number.bitPattern)) : .real(number)
    }

    /// `text` with its NUL and U+0001 characters escaped, for a database whose text cannot hold
    /// a NUL: each becomes U+0001 followed by U+0001 (for NUL) or U+0002 (for U+0001). The code is
    /// prefix-free and keeps the byte-wise order, so `==`, `<`, `BEGINSWITH` and `ORDER BY` on
    /// escaped columns (with escaped operands) agree with the unescaped strings; text without
    /// those two characters is stored as it is.
    static func escapingNUL(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 2 }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if byte < 2 { bytes += [1, byte + 1] } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text ``escapingNUL(_:)`` escaped, or `nil` if `text` is not such an escape.
    static func unescapingNUL(_ text: String) -> String? {
        guard text.utf8.contains(1) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                guard byte == 1 || byte == 2 else { return nil }
                bytes.append(byte - 1)
                escaped = false
            } else if byte == 1 {
                escaped = true
            } else {
                bytes.append(byte)
            }
        }
        return escaped ? nil : String(decoding: bytes, as: UTF8.self)
    }

    private static func double(_ value: SQLValue) -> Double? {
        switch value {
        case .real(let number): number
        case .integer(let number): Double(exactly: number)
        case .blob(let bytes) where bytes.count == 8: Double(bitPattern: UInt64(littleEndian: load(bytes)))
        default: nil
        }
    }

    private static func bytes<T: FixedWidthInteger>(of bits: T) -> [UInt8] {
        withUnsafeBytes(of: bits.littleEndian) { [UInt8]($0) }
    }

    private static func load<T: FixedWidthInteger>(_ bytes: [UInt8]) -> T {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: T.self) }
    }
}
