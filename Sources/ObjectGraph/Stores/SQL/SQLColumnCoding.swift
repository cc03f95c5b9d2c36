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

    /// `value` as the column for an attribute stores it.
    static func encode(_ value: StoreValue) -> SQLValue {
        switch value {
        case .null: .null
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .int(let number): .integer(number)
        case .float(let number):
            number.isNaN ? .blob(bytes(of: number.bitPattern)) : .real(Double(number))
        case .double(let number): real(number)
        case .date(let date): real(date.timeIntervalSinceReferenceDate)
        case .string(let text): .text(text)
        case .decimal(let number): .text(number.description)
        case .data(let data): .blob([UInt8](data))
        case .uuid(let uuid): .blob(withUnsafeBytes(of: uuid.uuid) { [UInt8]($0) })
        case .url(let url): .text(url.absoluteString)
        case .object(let id): .integer(id.key)
        case .objects: .null
        }
    }

    /// The attribute value a column holds, or `nil` if it does not hold a valid `type`.
    static func decode(_ value: SQLValue, as type: AttributeType) -> StoreValue? {
        switch (type, value) {
        case (_, .null): return .null
        case (.boolean, .integer(let number)) where number == 0 || number == 1: return .bool(number == 1)
        case (.integer16, .integer(let number)) where Int16(exactly: number) != nil: return .int(number)
        case (.integer32, .integer(let number)) where Int32(exactly: number) != nil: return .int(number)
        case (.integer64, .integer(let number)): return .int(number)
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
        case (.string, .text(let text)): return .string(text)
        case (.decimal, .text(let text)): return Decimal(storedText: text).map { .decimal($0) }
        case (.binary, .blob(let bytes)), (.codable, .blob(let bytes)): return .data(Data(bytes))
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            return .uuid(UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
        case (.uri, .text(let text)): return URL(string: text).map { .url($0) }
        default: return nil
        }
    }

    private static func real(_ number: Double) -> SQLValue {
        number.isNaN ? .blob(bytes(of: number.bitPattern)) : .real(number)
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
