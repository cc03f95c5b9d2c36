import Foundation

/// The file stores' encoders and loaders on bytes in memory, with no file, lock or store object:
/// exactly the code `JSONFileStore` and `BinaryFileStore` run on the bytes they read and write.
///
/// For the package's fuzz targets (`FuzzJSONStore`, `FuzzBinaryHeader`, `FuzzBinaryFrames`) and
/// tools; `package`, not public, so it is no part of the library's API. `url` is only the file
/// that errors name.
///
/// For example, a fuzz target:
/// ```swift
/// do {
///     _ = try StoreFileCodec.decodeJSONStore(bytes, url: url, model: model)
/// } catch let error as PersistenceError {
///     // corruptStore, unsupportedFormat or modelMismatch, naming `url`
/// }
/// ```
package enum StoreFileCodec {
    /// The snapshot a JSON store document holds, decoded as `JSONFileStore` opens it.
    ///
    /// - Throws: `unsupportedFormat` for bytes that are not a JSON store or need a newer reader,
    ///   `modelMismatch` for a schema other than `model`'s, and `corruptStore` with the byte offset
    ///   and JSON path for anything malformed.
    /// - Complexity: O(*n*) in the size of `bytes`.
    package static func decodeJSONStore(_ bytes: [UInt8], url: URL, model: ManagedObjectModel) throws
        -> StoreSnapshot
    {
        try JSONStoreDocument.decode(bytes, url: url, model: model)
    }

    /// A JSON store document holding `snapshot`, as `JSONFileStore` writes it.
    package static func encodeJSONStore(_ snapshot: StoreSnapshot, pretty: Bool) -> [UInt8] {
        JSONStoreDocument.encode(snapshot, pretty: pretty)
    }

    /// The schema in a binary store's header and the header's size in bytes; the bytes after the
    /// header are not read.
    ///
    /// - Throws: `unsupportedFormat` for bytes that are not a binary store or need a newer
    ///   reader, and `corruptStore` with the byte offset for a truncated or damaged header.
    package static func decodeBinaryHeader(_ bytes: [UInt8], url: URL) throws
        -> (schema: [EntityDescription], size: Int)
    {
        try bytes.withUnsafeBytes { try BinaryStoreHeader.decode($0, url: url) }
    }

    /// A binary store header carrying `model`'s schema, as `BinaryFileStore` writes it.
    package static func encodeBinaryHeader(_ model: ManagedObjectModel) -> [UInt8] {
        BinaryStoreHeader.encode(model.entities)
    }

    /// A binary store's contents, replayed as `BinaryFileStore` opens it: the snapshot, the
    /// offset just past the last valid frame, and whether a torn tail follows it (which the
    /// store would cut off at `validEnd`).
    ///
    /// - Throws: what ``decodeBinaryHeader(_:url:)`` throws, `modelMismatch` for a schema other
    ///   than `model`'s, and `corruptStore` with the byte offset for a damaged frame that is not
    ///   the last one, or a frame whose checksum matches but whose contents are malformed.
    /// - Complexity: O(*n*) in the size of `bytes`.
    package static func replayBinaryStore(_ bytes: [UInt8], url: URL, model: ManagedObjectModel) throws
        -> (snapshot: StoreSnapshot, validEnd: Int, hasTornTail: Bool)
    {
        let replay = try BinaryStoreReplay(bytes: bytes, url: url, model: model)
        return (replay.snapshot, replay.validEnd, replay.hasTornTail)
    }

    /// A whole compacted binary store holding `snapshot`: its header and one snapshot frame.
    package static func encodeBinaryStore(_ snapshot: StoreSnapshot) -> [UInt8] {
        BinaryFileStore.compactedFile(snapshot)
    }

    /// The frame a save of `changes` appends to a binary store whose state was `previous`.
    package static func encodeBinaryChangeFrame(_ changes: StoreChangeSet, previous: StoreSnapshot) -> [UInt8] {
        BinaryStoreFrame.encodeChanges(changes, previous: previous)
    }

    /// `bytes` with the binary store header's checksum rewritten to match, if the header's
    /// declared schema fits in `bytes`; otherwise `bytes` as they are. For fuzzing, as
    /// ``withFrameChecksumsRepaired(_:)`` is.
    package static func withHeaderChecksumRepaired(_ bytes: [UInt8]) -> [UInt8] {
        let fixed = BinaryStoreHeader.fixedSize
        guard bytes.count >= fixed else { return bytes }
        let schemaSize = bytes[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard schemaSize <= BinaryStoreHeader.maximumSchemaSize, fixed + schemaSize + 4 <= bytes.count else {
            return bytes
        }
        var bytes = bytes
        let checksum = CRC32C.checksum(Array(bytes[0..<(fixed + schemaSize)]))
        for index in 0..<4 {
            bytes[fixed + schemaSize + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index))
        }
        return bytes
    }

    /// Frames found in `bytes`, the part of a binary store after its header, each with its
    /// checksum rewritten to match its payload. Stops at the first frame whose declared length
    /// is invalid or runs past the end; what follows it is left as it is.
    ///
    /// A fuzzer almost never guesses a CRC-32C, so without this it would test little beyond the
    /// checksum check; with it, mutated payloads reach the frame parser.
    package static func withFrameChecksumsRepaired(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var offset = 0
        bytes.withUnsafeMutableBytes { raw in
            while let length = BinaryStoreReplay.declaredLength(UnsafeRawBufferPointer(raw), at: offset),
                offset + BinaryStoreFrame.headerSize + length <= raw.count
            {
                let start = offset + BinaryStoreFrame.headerSize
                let checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]))
                raw.storeBytes(of: checksum.littleEndian, toByteOffset: offset + 4, as: UInt32.self)
                offset = start + length
            }
        }
        return bytes
    }
}
