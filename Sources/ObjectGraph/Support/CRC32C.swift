/// CRC-32C (Castagnoli), as used by iSCSI, ext4 and LevelDB: the checksum of every store frame.
///
/// Table-driven, slicing by 16 bytes: sixteen 256-entry tables in one flat array, read through a
/// pointer (no bounds check or array header per lookup), eight bytes loaded per `UInt64` read.
/// Opening a store checksums every byte of it, so this loop is a good share of an open.
enum CRC32C {
    /// The number of bytes folded per step of the main loop (and of tables).
    static let slices = 16

    /// `table[slice << 8 | byte]`: slice 0 is the classic byte-at-a-time table; slice `n` is the
    /// CRC of `byte` followed by `n` zero bytes.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: slices * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            table[index] = crc
        }
        for slice in 1..<slices {
            for index in 0..<256 {
                let previous = table[(slice - 1) << 8 | index]
                table[slice << 8 | index] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return table.withUnsafeBufferPointer { table in
            update(0xFFFF_FFFF, base, bytes.count, table.baseAddress!)
        } ^ 0xFFFF_FFFF
    }

    /// The table lookup of `byte` in `slice`.
    @inline(__always)
    private static func lookup(_ t: UnsafePointer<UInt32>, _ slice: Int, _ byte: UInt64) -> UInt32 {
        t[slice << 8 | Int(truncatingIfNeeded: byte & 0xFF)]
    }

    /// Folds `count` bytes at `base` into the running (non-inverted) `crc`.
    @inline(__always)
    private static func update(
        _ crc: UInt32, _ base: UnsafeRawPointer, _ count: Int, _ t: UnsafePointer<UInt32>
    ) -> UInt32 {
        var crc = crc
        var index = 0
        while index + 16 <= count {
            let low = UInt64(crc) ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
            let a =
                lookup(t, 15, low) ^ lookup(t, 14, low >> 8) ^ lookup(t, 13, low >> 16) ^ lookup(t, 12, low >> 24)
            let b =
                lookup(t, 11, low >> 32) ^ lookup(t, 10, low >> 40) ^ lookup(t, 9, low >> 48) ^ lookup(t, 8, low >> 56)
            let c = lookup(t, 7, high) ^ lookup(t, 6, high >> 8) ^ lookup(t, 5, high >> 16) ^ lookup(t, 4, high >> 24)
            let d =
                lookup(t, 3, high >> 32) ^ lookup(t, 2, high >> 40) ^ lookup(t, 1, high >> 48)
                ^ lookup(t, 0, high >> 56)
            crc = (a ^ b) ^ (c ^ d)
            index += 16
        }
        if index + 8 <= count {
            let low = UInt64(crc) ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            crc =
                (lookup(t, 7, low) ^ lookup(t, 6, low >> 8) ^ lookup(t, 5, low >> 16) ^ lookup(t, 4, low >> 24))
                ^ (lookup(t, 3, low >> 32) ^ lookup(t, 2, low >> 40) ^ lookup(t, 1, low >> 48) ^ lookup(t, 0, low >> 56))
            index += 8
        }
        while index < count {
            let byte = UInt64(base.load(fromByteOffset: index, as: UInt8.self))
            crc = (crc >> 8) ^ lookup(t, 0, UInt64(crc) ^ byte)
            index += 1
        }
        return crc
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// The checksum of `bytes`, one bit at a time: the definition the table-driven checksum is
    /// tested against.
    static func bitwiseChecksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
