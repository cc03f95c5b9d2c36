import Foundation

/// A store file read whole and decoded with the model its own schema describes, without opening a
/// store: no lock is taken and nothing is written, so it is safe on any file.
struct StoreFileContents {
    let url: URL
    let bytes: [UInt8]
    let kind: StoreFileKind
    /// The format version the file was written with.
    let formatVersion: Int
    let snapshot: StoreSnapshot
    /// The number of complete frames (binary stores).
    let frameCount: Int?
    /// Where a torn tail starts, if the binary log ends in an incomplete frame.
    let tornTailOffset: Int?

    /// Reads and decodes the whole file.
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` for a missing or unreadable file;
    ///   `.unsupportedFormat` for a directory, a file that is no store, or a newer format;
    ///   `.corruptStore` naming the byte offset of the first problem.
    init(url: URL) throws {
        let bytes = try Self.readBytes(url)
        let kind = try StoreFileKind.detect(bytes, url: url)
        self.url = url
        self.bytes = bytes
        self.kind = kind
        let model = try Self.model(from: bytes, kind: kind, url: url)
        switch kind {
        case .json:
            snapshot = try JSONStoreDocument.decode(bytes, url: url, model: model)
            formatVersion = Self.jsonFormatVersion(bytes)
            frameCount = nil
            tornTailOffset = nil
        case .binary:
            let replay = try BinaryStoreReplay(bytes: bytes, url: url, model: model)
            snapshot = replay.snapshot
            formatVersion = Int(bytes[8]) | Int(bytes[9]) << 8
            frameCount = Self.countFrames(bytes, from: replay.headerSize, to: replay.validEnd)
            tornTailOffset = replay.hasTornTail ? replay.validEnd : nil
        }
    }

    /// The first problem of a file that decoded: a torn tail, or a damaged first frame.
    ///
    /// The first frame holds the snapshot written when the file was created or compacted, and is
    /// written atomically, so a crash cannot leave it incomplete: when it fails its checks the file
    /// is damaged (cut short, say), and it is not a torn tail to cut off.
    var problem: PersistenceError? {
        guard let offset = tornTailOffset else { return nil }
        if frameCount == 0 { return .damagedFirstFrame(url, offset: offset) }
        return .tornTail(url, offset: offset, length: bytes.count - offset)
    }

    /// Refuses a file whose first frame is damaged: reading it as a store would lose every object.
    ///
    /// - Throws: `PersistenceError.Code.corruptStore` naming the frame's offset.
    func checkFirstFrame() throws {
        if let offset = tornTailOffset, frameCount == 0 {
            throw PersistenceError.damagedFirstFrame(url, offset: offset)
        }
    }

    /// The file's bytes, after checking that it exists and is not a directory.
    static func readBytes(_ url: URL) throws -> [UInt8] {
        try checkIsFile(url)
        return try StoreFile(url: url, fileSystem: POSIXFileSystem()).readAll()
    }

    /// Checks that `url` names an existing file, not a directory.
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` for a missing file; `.unsupportedFormat` for a
    ///   directory.
    static func checkIsFile(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw PersistenceError.fileNotFound(url)
        }
        guard !isDirectory.boolValue else { throw PersistenceError.notAFile(url) }
    }

    /// The model the file's stored schema describes, with untyped entities.
    static func model(from bytes: [UInt8], kind: StoreFileKind, url: URL) throws -> ManagedObjectModel {
        let schema: [EntityDescription]
        switch kind {
        case .json:
            try checkJSONFormatKey(bytes, url: url)
            schema = try JSONStoreDocument.schema(of: bytes, url: url)
        case .binary:
            guard bytes.count >= BinaryStoreHeader.magic.count else {
                throw PersistenceError.corruptFile(url, offset: bytes.count, "the header is truncated")
            }
            schema = try bytes.withUnsafeBytes { try BinaryStoreHeader.decode($0, url: url).schema }
        }
        do {
            return try ManagedObjectModel(entities: schema)
        } catch let error as PersistenceError {
            throw PersistenceError.invalidStoredSchema(url, error)
        }
    }

    /// Refuses a JSON document whose first key is not `format`: some other program's JSON file.
    /// (A document that ends before its first key is a damaged store; decoding it says where.)
    private static func checkJSONFormatKey(_ bytes: [UInt8], url: URL) throws {
        var reader = JSONReader(bytes: bytes, url: url)
        try reader.expect(UInt8(ascii: "{"), "an object")
        if reader.peek() == UInt8(ascii: "}") {
            throw PersistenceError.notAStore(url, expected: "a JSON store (it is an empty JSON object)")
        }
        guard let key = try? reader.readString() else { return }
        guard key == "format" else {
            throw PersistenceError.notAStore(url, expected: "a JSON store (its first key is not \"format\")")
        }
    }

    /// The `version` of a JSON document that has already been decoded successfully (so its first
    /// keys are `format` and `version`).
    private static func jsonFormatVersion(_ bytes: [UInt8]) -> Int {
        var reader = JSONReader(bytes: bytes, url: URL(fileURLWithPath: "/"))
        var version: Int64 = 0
        try? reader.expect(UInt8(ascii: "{"), "an object")
        while version == 0, let key = try? reader.readString() {
            guard (try? reader.expect(UInt8(ascii: ":"), "':'")) != nil else { break }
            switch key {
            case "format": _ = try? reader.readString()
            case "version": version = (try? reader.readInt64()) ?? 0
            default: return 0
            }
            _ = try? reader.expect(UInt8(ascii: ","), "','")
        }
        return Int(version)
    }

    /// The number of frames between the header and the end of the valid log.
    private static func countFrames(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
        bytes.withUnsafeBytes { raw in
            var count = 0
            var offset = start
            while offset < end, let payload = BinaryStoreReplay.validPayload(raw, at: offset) {
                count += 1
                offset += BinaryStoreFrame.headerSize + payload.count
            }
            return count
        }
    }
}
