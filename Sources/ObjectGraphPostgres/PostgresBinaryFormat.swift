import ObjectGraph

/// How ``SQLValue``s travel in PostgreSQL's binary format (big-endian), as parameters and as
/// result columns.
///
/// | Value | Parameter type | Column types read |
/// |---|---|---|
/// | `.integer` | `bigint` (int8) | `bigint`, `integer`, `smallint`, `oid`, `boolean` (0 or 1) |
/// | `.real` | `double precision` (float8), every bit | `double precision`, `real`; `numeric` that is not an `Int64` |
/// | `.text` | `text` | `text`, `varchar`, `char`, `name`, `json`, `xml`, `unknown` |
/// | `.blob` | `bytea` | `bytea`, `uuid`, and any other type (its binary form as it is) |
/// | `.null` | none: the type follows from where it stands | `NULL` |
///
/// `numeric` is read as `.integer` when it has no fraction digits (a scale of 0, as `SUM` of integers
/// gives) and fits, otherwise as `.real` (as `AVG` gives), as SQLite's arithmetic does.
enum PostgresBinaryFormat {
    /// Type OIDs (`pg_type.oid`), fixed since PostgreSQL 7.
    enum TypeID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let name: UInt32 = 19
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let oid: UInt32 = 26
        static let json: UInt32 = 114
        static let xml: UInt32 = 142
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let unknown: UInt32 = 705
        static let bpchar: UInt32 = 1042
        static let varchar: UInt32 = 1043
        static let numeric: UInt32 = 1700
    }

    /// The parameter type a value is sent as; 0 (unspecified) for `NULL`.
    static func type(of value: SQLValue) -> UInt32 {
        switch value {
        case .null: 0
        case .integer: TypeID.int8
        case .real: TypeID.float8
        case .text: TypeID.text
        case .blob: TypeID.bytea
        }
    }

    /// Appends the binary form of `value` to `buffer`; `false` for `NULL`, which has none.
    static func encode(_ value: SQLValue, into buffer: inout [UInt8]) -> Bool {
        switch value {
        case .null: return false
        case .integer(let number): append(UInt64(bitPattern: number), to: &buffer)
        case .real(let number): append(number.bitPattern, to: &buffer)
        case .text(let text): buffer.append(contentsOf: text.utf8)
        case .blob(let bytes): buffer.append(contentsOf: bytes)
        }
        return true
    }

    /// The value of a column of type `type` whose binary form is `bytes`.
    static func decode(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> SQLValue {
        switch (type, bytes.count) {
        case (TypeID.int8, 8): .integer(Int64(bitPattern: load(bytes, as: UInt64.self)))
        case (TypeID.int4, 4): .integer(Int64(Int32(bitPattern: load(bytes, as: UInt32.self))))
        case (TypeID.int2, 2): .integer(Int64(Int16(bitPattern: load(bytes, as: UInt16.self))))
        case (TypeID.oid, 4): .integer(Int64(load(bytes, as: UInt32.self)))
        case (TypeID.bool, 1): .integer(bytes[0] == 0 ? 0 : 1)
        case (TypeID.float8, 8): .real(Double(bitPattern: load(bytes, as: UInt64.self)))
        case (TypeID.float4, 4): .real(Double(Float(bitPattern: load(bytes, as: UInt32.self))))
        case (TypeID.text, _), (TypeID.varchar, _), (TypeID.bpchar, _), (TypeID.name, _), (TypeID.json, _),
            (TypeID.xml, _), (TypeID.unknown, _):
            .text(String(decoding: bytes, as: UTF8.self))
        case (TypeID.numeric, _): numeric(bytes) ?? .blob([UInt8](bytes))
        default: .blob([UInt8](bytes))
        }
    }

    /// A `numeric` in its binary form: digit count, weight, sign and display scale (16 bits
    /// each), then base-10000 digits, the first of weight `weight`.
    private static func numeric(_ bytes: UnsafeRawBufferPointer) -> SQLValue? {
        guard bytes.count >= 8 else { return nil }
        let field = { (index: Int) in load(UnsafeRawBufferPointer(rebasing: bytes[(index * 2)...]), as: UInt16.self) }
        let count = Int(field(0))
        let weight = Int(Int16(bitPattern: field(1)))
        let sign = field(2)
        guard bytes.count == 8 + 2 * count else { return nil }
        switch sign {
        case 0xC000: return .real(.nan)
        case 0xD000: return .real(.infinity)
        case 0xF000: return .real(-.infinity)
        case 0x0000, 0x4000: break
        default: return nil
        }
        let digits = (0..<count).map { Int(field(4 + $0)) }
        guard digits.allSatisfy({ $0 < 10_000 }) else { return nil }
        if digits.isEmpty { return .integer(0) }
        if field(3) == 0, count - 1 <= weight, let whole = wholeNumber(digits, weight: weight, negative: sign == 0x4000)
        {
            return .integer(whole)
        }
        // Correctly rounded: the exact decimal digits, then a power of ten.
        let text = digits.enumerated().map { $0.offset == 0 ? String($0.element) : padded($0.element) }.joined()
        let exponent = 4 * (weight - count + 1)
        return Double("\(sign == 0x4000 ? "-" : "")\(text)e\(exponent)").map { .real($0) }
    }

    /// The whole number with base-10000 `digits` (the first of weight `weight`), or `nil` if it
    /// does not fit in an `Int64`.
    private static func wholeNumber(_ digits: [Int], weight: Int, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for position in 0...weight {
            let digit = Int64(position < digits.count ? digits[position] : 0)
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10_000)
            // Negative numbers accumulate downwards, so that Int64.min fits.
            let (next, overflow2) =
                negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    private static func padded(_ digit: Int) -> String {
        let text = String(digit)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    private static func load<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as type: T.Type) -> T {
        T(bigEndian: bytes.loadUnaligned(as: T.self))
    }
}
