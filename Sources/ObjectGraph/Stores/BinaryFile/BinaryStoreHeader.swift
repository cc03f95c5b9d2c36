import Foundation

/// The binary store's header: magic, format versions and the schema, with a checksum.
/// The byte layout is in Docs/StoreFormats.md.
enum BinaryStoreHeader {
    /// "OGRAPHDB".
    static let magic: [UInt8] = Array("OGRAPHDB".utf8)
    /// The version this library writes.
    static let writeVersion: UInt16 = 1
    /// The oldest reader version that can read what this library writes; a file whose read
    /// version is above `supportedReadVersion` is refused.
    static let readVersion: UInt16 = 1
    static let supportedReadVersion: UInt16 = 1
    /// Bytes before the schema.
    static let fixedSize = 16
    /// The most schema bytes a header may declare (16 MiB).
    static let maximumSchemaSize = 16 << 20

    static func encode(_ entities: [EntityDescription]) -> [UInt8] {
        let schema = StoreSchema.encode(entities)
        var writer = ByteWriter(capacity: fixedSize + schema.count + 4)
        writer.bytes.append(contentsOf: magic)
        writer.u16(writeVersion)
        writer.u16(readVersion)
        writer.u32(UInt32(schema.count))
        writer.bytes.append(contentsOf: schema)
        writer.u32(CRC32C.checksum(writer.bytes))
        return writer.bytes
    }

    /// The schema and the header's size.
    ///
    /// - Throws: `unsupportedFormat` for a file that is not a binary store or needs a newer
    ///   reader; `corruptStore` with the byte offset for a truncated or damaged header.
    static func decode(_ bytes: UnsafeRawBufferPointer, url: URL) throws -> (schema: [EntityDescription], size: Int) {
        guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else {
            if bytes.isEmpty { throw PersistenceError.corruptFile(url, offset: 0, "the file is empty") }
            throw PersistenceError.notAStore(url, expected: "a binary store (its first bytes are not OGRAPHDB)")
        }
        var reader = ByteReader(buffer: bytes, base: 0, url: url, position: magic.count)
        guard bytes.count >= fixedSize + 4 else { throw reader.error("the header is truncated", at: bytes.count) }
        _ = try reader.bytes(2)
        let read = UInt16(try reader.u8()) | UInt16(try reader.u8()) << 8
        guard read <= supportedReadVersion else {
            throw PersistenceError.unsupportedVersion(url, version: Int(read), supported: Int(supportedReadVersion))
        }
        let schemaSize = Int(try reader.u32())
        guard schemaSize <= maximumSchemaSize, fixedSize + schemaSize + 4 <= bytes.count else {
            throw reader.error("the header declares \(schemaSize) schema bytes, past the end of the file", at: 12)
        }
        let schemaBytes = try reader.bytes(schemaSize)
        let stored = try reader.u32()
        let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(fixedSize + schemaSize)]))
        guard stored == computed else {
            throw reader.error("the header checksum does not match", at: fixedSize + schemaSize)
        }
        let schema = try StoreSchema.decode(Array(schemaBytes), url: url)
        return (schema, fixedSize + schemaSize + 4)
    }
}
