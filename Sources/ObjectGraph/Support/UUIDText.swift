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
        guard utf8.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = nibble(utf8[position]), let low = nibble(utf8[position + 1]) else { return false }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return ok ? UUID(uuid: uuid) : nil
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
