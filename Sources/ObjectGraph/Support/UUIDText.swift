import Foundation

/// The canonical text form of UUIDs (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`), written and read
/// without going through C formatting.
enum UUIDText {
    private static let hex = Array("0123456789ABCDEF".utf8)

    static func write(_ uuid: UUID, into writer: inout JSONWriter) {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { writer.byte(UInt8(ascii: "-")) }
                writer.byte(hex[Int(byte >> 4)])
                writer.byte(hex[Int(byte & 0xF)])
            }
        }
    }

    /// Parses the canonical form, in either letter case; `nil` for anything else.
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses the canonical form from its UTF-8 bytes, in either letter case; `nil` for anything
    /// else.
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> UUID? {
        let dash = UInt8(ascii: "-")
        guard utf8.count == 36, utf8[8] == dash, utf8[13] == dash, utf8[18] == dash, utf8[23] == dash else {
            return nil
        }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Any byte that is not a hex digit makes its nibble 0xFF, which sets a bit of `invalid`.
        var invalid: UInt8 = 0
        withUnsafeMutableBytes(of: &uuid) { output in
            var index = 0
            // The five groups of digits between the dashes, two digits per byte.
            @inline(__always) func group(from start: Int, bytes count: Int) {
                for offset in 0..<count {
                    let high = value(utf8[start + 2 * offset])
                    let low = value(utf8[start + 2 * offset + 1])
                    invalid |= high | low
                    output[index + offset] = high << 4 | low
                }
                index += count
            }
            group(from: 0, bytes: 4)
            group(from: 9, bytes: 2)
            group(from: 14, bytes: 2)
            group(from: 19, bytes: 2)
            group(from: 24, bytes: 6)
        }
        return invalid & 0xF0 == 0 ? UUID(uuid: uuid) : nil
    }

    /// The value of a hex digit in either case, or 0xFF.
    @inline(__always)
    private static func value(_ byte: UInt8) -> UInt8 {
        let digit = byte &- 0x30
        let letter = (byte | 0x20) &- 0x61
        return digit < 10 ? digit : letter < 6 ? letter + 10 : 0xFF
    }
}
