import Foundation

/// The two store file formats: a JSON document or a binary log.
///
/// A file's kind is decided by its first bytes, never by its name: a binary store starts with
/// the magic bytes `OGRAPHDB`, a JSON store with `{`.
///
/// For example:
/// ```swift
/// let kind = try StoreFileInspector.kind(of: URL(fileURLWithPath: "fruits.store"))  // .binary
/// ```
public enum StoreFileKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A ``JSONFileStore`` document.
    case json
    /// A ``BinaryFileStore`` log.
    case binary

    /// The kind a store at `url` gets when it is created, from its name alone, as
    /// ``StoreDescription/init(url:)`` decides it: a `.json` file is a JSON store, any other file
    /// a binary store.
    public init(inferredFrom url: URL) {
        self = url.pathExtension.lowercased() == "json" ? .json : .binary
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        switch self {
        case .json: "JSON store"
        case .binary: "binary store"
        }
    }

    /// The kind of a store file's contents, from its first bytes.
    ///
    /// - Throws: `PersistenceError.Code.corruptStore` for an empty file;
    ///   `.unsupportedFormat` for a file that starts like neither kind.
    static func detect(_ bytes: [UInt8], url: URL) throws -> StoreFileKind {
        let magic = BinaryStoreHeader.magic
        // A file cut short inside the magic is a truncated binary store, so that reading it names
        // the truncation rather than calling it a foreign file.
        if !bytes.isEmpty && (bytes.starts(with: magic) || magic.starts(with: bytes)) { return .binary }
        let whitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        if let first = bytes.first(where: { !whitespace.contains($0) }) {
            if first == UInt8(ascii: "{") { return .json }
        } else {
            throw PersistenceError.corruptFile(
                url, offset: 0, bytes.isEmpty ? "the file is empty" : "the file holds only whitespace")
        }
        throw PersistenceError.notAStore(
            url, expected: "a store file (a binary store starts with the bytes OGRAPHDB, a JSON store with '{')")
    }
}
