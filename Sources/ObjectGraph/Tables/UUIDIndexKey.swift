import Foundation

/// A UUID as an index orders it: its 16 bytes as two big-endian integers, so that keys compare
/// in byte order with two integer comparisons.
struct UUIDIndexKey: Comparable, Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ uuid: UUID) {
        let bytes = uuid.uuid
        high =
            UInt64(bytes.0) << 56 | UInt64(bytes.1) << 48 | UInt64(bytes.2) << 40 | UInt64(bytes.3) << 32
            | UInt64(bytes.4) << 24 | UInt64(bytes.5) << 16 | UInt64(bytes.6) << 8 | UInt64(bytes.7)
        low =
            UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40 | UInt64(bytes.11) << 32
            | UInt64(bytes.12) << 24 | UInt64(bytes.13) << 16 | UInt64(bytes.14) << 8 | UInt64(bytes.15)
    }

    static func < (lhs: UUIDIndexKey, rhs: UUIDIndexKey) -> Bool {
        lhs.high < rhs.high || (lhs.high == rhs.high && lhs.low < rhs.low)
    }
}
