/// CRC-32C (Castagnoli), as used by iSCSI, ext4 and LevelDB: the checksum of every store frame.
///
/// Table-driven, slicing by 8 bytes.
enum CRC32C {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[0][index] = crc
        }
        for index in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][index]
                tables[slice][index] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { tables in
            let t0 = tables[0], t1 = tables[1], t2 = tables[2], t3 = tables[3]
            let t4 = tables[4], t5 = tables[5], t6 = tables[6], t7 = tables[7]
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = crc ^ UInt32(bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian)
                let high = UInt32(bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian)
                crc =
                    t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)] ^ t5[Int((low >> 16) & 0xFF)]
                    ^ t4[Int(low >> 24)] ^ t3[Int(high & 0xFF)] ^ t2[Int((high >> 8) & 0xFF)]
                    ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
        }
        return ~crc
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
