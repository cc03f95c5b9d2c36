import Foundation

/// Reads what `ByteWriter` writes, with bounds checks: every read past the end is a
/// `corruptStore` error naming the absolute byte offset.
///
/// The reads are inlined: opening a store makes several per value, and a call each was a good
/// share of the open.
struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    /// The absolute file offset of `buffer[0]`, for error messages.
    let base: Int
    let url: URL
    var position = 0

    var isAtEnd: Bool { position >= buffer.count }
    var offset: Int { base + position }

    func error(_ reason: String, at position: Int? = nil) -> PersistenceError {
        .corruptFile(url, offset: base + (position ?? self.position), reason)
    }

    @inline(__always)
    mutating func u8() throws -> UInt8 {
        guard position < buffer.count else { throw error("unexpected end of data") }
        defer { position += 1 }
        return buffer[position]
    }

    @inline(__always)
    mutating func u32() throws -> UInt32 {
        guard position + 4 <= buffer.count else { throw error("unexpected end of data") }
        defer { position += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    @inline(__always)
    mutating func u64() throws -> UInt64 {
        guard position + 8 <= buffer.count else { throw error("unexpected end of data") }
        defer { position += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    @inline(__always)
    mutating func varint() throws -> UInt64 {
        // Most varints (keys of small stores, lengths, entity numbers) are one byte.
        if position < buffer.count {
            let byte = buffer[position]
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return try longVarint()
    }

    /// A varint of any length, from its first byte; two and three bytes (keys and numbers up to
    /// 2^21) without the loop.
    private mutating func longVarint() throws -> UInt64 {
        if position + 3 <= buffer.count {
            let first = UInt64(buffer[position] & 0x7F)
            let second = buffer[position + 1]
            if second < 0x80 {
                position += 2
                return first | UInt64(second) << 7
            }
            let third = buffer[position + 2]
            if third < 0x80 {
                position += 3
                return first | UInt64(second & 0x7F) << 7 | UInt64(third) << 14
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            let byte = try u8()
            guard shift < 64, shift < 63 || byte <= 1 else { throw error("varint too long", at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    @inline(__always)
    mutating func zigzag() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A varint length (at most what remains) and that many bytes.
    @inline(__always)
    mutating func lengthPrefixed() throws -> UnsafeRawBufferPointer {
        let start = position
        let length = try varint()
        guard length <= UInt64(buffer.count - position) else {
            throw error("length past the end of the data", at: start)
        }
        defer { position += Int(length) }
        return UnsafeRawBufferPointer(rebasing: buffer[position..<(position + Int(length))])
    }

    @inline(__always)
    mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, position + count <= buffer.count else { throw error("unexpected end of data") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: buffer[position..<(position + count)])
    }
}
