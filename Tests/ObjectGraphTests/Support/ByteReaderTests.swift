import Foundation
import Testing

@testable import ObjectGraph

/// `ByteReader` varints (its one-, two- and three-byte fast paths and the general loop) against
/// `ByteWriter`, at the end of the data and followed by more, and its errors.
@Suite struct ByteReaderTests {
    private let url = URL(fileURLWithPath: "/tmp/reader-test")

    static let values: [UInt64] = [
        0, 1, 0x7F, 0x80, 0xFF, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF, 1 << 32, 1 << 63,
        UInt64.max - 1, UInt64.max,
    ]

    @Test(arguments: values) func varintRoundTripsAtTheEndAndFollowedByMore(_ value: UInt64) throws {
        var writer = ByteWriter()
        writer.varint(value)
        let alone = writer.bytes
        writer.u8(0xAB)
        writer.varint(value)
        let followed = writer.bytes
        try alone.withUnsafeBytes { raw throws in
            var reader = ByteReader(buffer: raw, base: 0, url: url)
            #expect(try reader.varint() == value)
            #expect(reader.isAtEnd)
        }
        try followed.withUnsafeBytes { raw throws in
            var reader = ByteReader(buffer: raw, base: 0, url: url)
            #expect(try reader.varint() == value)
            #expect(try reader.u8() == 0xAB)
            #expect(try reader.varint() == value)
            #expect(reader.isAtEnd)
        }
        // Zigzag of the same bits, signed.
        var signed = ByteWriter()
        signed.zigzag(Int64(bitPattern: value))
        try signed.bytes.withUnsafeBytes { raw throws in
            var reader = ByteReader(buffer: raw, base: 0, url: url)
            #expect(try reader.zigzag() == Int64(bitPattern: value))
        }
    }

    @Test(arguments: values.filter { $0 >= 0x80 }) func truncatedVarintIsAnError(_ value: UInt64) {
        var writer = ByteWriter()
        writer.varint(value)
        for length in 0..<writer.bytes.count {
            Array(writer.bytes.prefix(length)).withUnsafeBytes { raw in
                var reader = ByteReader(buffer: raw, base: 100, url: url)
                #expect(throws: PersistenceError.self) { try reader.varint() }
            }
        }
    }

    @Test func overlongVarintIsAnError() {
        let bytes = [UInt8](repeating: 0xFF, count: 10) + [0x01]
        bytes.withUnsafeBytes { raw in
            var reader = ByteReader(buffer: raw, base: 0, url: url)
            let error = #expect(throws: PersistenceError.self) { try reader.varint() }
            #expect(error?.message.contains("varint too long") == true)
        }
        // Ten bytes whose last holds more than the 64th bit.
        let tooBig = [UInt8](repeating: 0xFF, count: 9) + [0x02]
        tooBig.withUnsafeBytes { raw in
            var reader = ByteReader(buffer: raw, base: 0, url: url)
            #expect(throws: PersistenceError.self) { try reader.varint() }
        }
    }
}
