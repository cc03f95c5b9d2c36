import Testing

@testable import ObjectGraph

/// The table-driven CRC-32C against known vectors and against the bit-at-a-time definition.
@Suite struct CRC32CTests {
    @Test func knownVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.bitwiseChecksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func everyLengthAtEveryAlignmentMatchesTheDefinition() {
        var generator = SeededGenerator(seed: 7)
        let bytes = (0..<140).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        bytes.withUnsafeBytes { raw in
            for alignment in 0..<16 {
                for length in 0...100 {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[alignment..<(alignment + length)])
                    #expect(
                        CRC32C.checksum(slice) == CRC32C.bitwiseChecksum(slice),
                        "length \(length) at alignment \(alignment)")
                }
            }
        }
    }

    @Test func oneMebibyteOfRandomBytesMatchesTheDefinition() {
        var generator = SeededGenerator(seed: 42)
        let bytes = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        #expect(CRC32C.checksum(bytes) == CRC32C.bitwiseChecksum(bytes))
        // A single flipped bit anywhere changes the checksum.
        var flipped = bytes
        flipped[(1 << 20) - 3] ^= 0x10
        #expect(CRC32C.checksum(flipped) != CRC32C.checksum(bytes))
    }
}
