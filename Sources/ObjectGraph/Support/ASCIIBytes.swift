/// Tests on UTF-8 bytes shared by the readers and the query engine.
enum ASCIIBytes {
    /// Whether every byte of `bytes` is below 0x80, checked eight bytes at a time.
    static func areASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var bits: UInt64 = 0
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            bits |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            bits |= UInt64(bytes[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `text` is ASCII (eight bytes at a time where its storage is contiguous).
    static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { areASCII(UnsafeRawBufferPointer($0)) }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }
}
