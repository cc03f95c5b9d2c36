import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        switch kind {
        case .json:
            let model = try Self.model(from: bytes, kind: kind, url: url)
            snapshot = try JSONStoreDocument.decode(bytes, url: url, model: model)
            formatVersion = try Self.jsonPreamble(bytes, url: url) ?? Int(JSONStoreDocument.version)
            frameCount = nil
            tornTailOffset = nil
        case .binary:
            let model = try Self.model(from: bytes, kind: kind, url: url)
            let replay = try BinaryStoreReplay(bytes: bytes, url: url, model: model)
            snapshot = replay.snapshot
            formatVersion = Int(bytes[8]) | Int(bytes[9]) << 8
            frameCount = Self.countFrames(bytes, from: replay.headerSize, to: replay.validEnd)
            tornTailOffset = replay.hasTornTail ? replay.validEnd : nil
        case .sqlite:
            (snapshot, formatVersion) = try SQLiteStore.readFile(at: url)
            frameCount = nil
            tornTailOffset = nil
        }
    }

    /// The first problem of a file that decoded: a torn tail. (A damaged first frame does not
    /// decode: the replay refuses it, since that frame is written atomically and a crash cannot
    /// tear it.)
    var problem: PersistenceError? {
        tornTailOffset.map { .tornTail(url, offset: $0, length: bytes.count - $0) }
    }

    /// The file's bytes, after checking that it is an existing regular file.
    static func readBytes(_ url: URL) throws -> [UInt8] {
        try checkIsFile(url)
        return try StoreFile(url: url, fileSystem: POSIXFileSystem()).readAll()
    }

    /// Checks that `url` names an existing regular file (or a symlink to one), not a directory, a
    /// device, a pipe or a socket: the tools never read from or replace anything but a file.
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` for a missing file; `.unsupportedFormat` for
    ///   anything that is not a regular file.
    static func checkIsFile(_ url: URL) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw PersistenceError.fileNotFound(url) }
            throw PersistenceError.io("stat", path: url.path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw PersistenceError.notAFile(url, "a directory")
        default: throw PersistenceError.notAFile(url, "a device, pipe or socket")
        }
    }

    /// The model the file's stored schema describes, with untyped entities.
    static func model(from bytes: [UInt8], kind: StoreFileKind, url: URL) throws -> ManagedObjectModel {
        let schema: [EntityDescription]
        switch kind {
        case .json:
            _ = try jsonPreamble(bytes, url: url)
            schema = try JSONStoreDocument.schema(of: bytes, url: url)
        case .binary:
            guard bytes.count >= BinaryStoreHeader.magic.count else {
                throw PersistenceError.corruptFile(url, offset: bytes.count, "the header is truncated")
            }
            schema = try bytes.withUnsafeBytes { try BinaryStoreHeader.decode($0, url: url).schema }
        case .sqlite:
            schema = try SQLiteStore.storedSchema(at: url)
        }
        do {
            return try ManagedObjectModel(entities: schema)
        } catch let error as PersistenceError {
            throw PersistenceError.invalidStoredSchema(url, error)
        }
    }

    /// Reads a JSON document's `format` and `version`, the keys it starts with: refuses some other
    /// program's JSON file and a newer format version. Returns the version, or `nil` when the
    /// document is too damaged to read that far (decoding it then says where).
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat`.
    private static func jsonPreamble(_ bytes: [UInt8], url: URL) throws -> Int? {
        var reader = JSONReader(bytes: bytes, url: url)
        try reader.expect(UInt8(ascii: "{"), "an object")
        if reader.peek() == UInt8(ascii: "}") {
            throw PersistenceError.notAStore(url, expected: "a JSON store (it is an empty JSON object)")
        }
        guard let key = try? reader.readString() else { return nil }
        guard key == "format" else {
            throw PersistenceError.notAStore(url, expected: "a JSON store (its first key is not \"format\")")
        }
        guard (try? reader.expect(UInt8(ascii: ":"), "':'")) != nil, let format = try? reader.readString() else {
            return nil
        }
        guard format == JSONStoreDocument.formatName else {
            throw PersistenceError.notAStore(url, expected: "a JSON store (its format is \"\(format)\")")
        }
        guard (try? reader.expect(UInt8(ascii: ","), "','")) != nil, (try? reader.readString()) == "version",
            (try? reader.expect(UInt8(ascii: ":"), "':'")) != nil, let version = try? reader.readInt64()
        else { return nil }
        guard version >= 1, version <= JSONStoreDocument.version else {
            throw PersistenceError.unsupportedVersion(
                url, version: Int(clamping: version), supported: Int(JSONStoreDocument.version))
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
