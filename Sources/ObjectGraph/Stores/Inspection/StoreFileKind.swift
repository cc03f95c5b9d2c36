import Foundation

/// The store file formats: a JSON document, a binary log, or a SQLite database.
///
/// A file's kind is decided by its first bytes, never by its name: a binary store starts with
/// the magic bytes `OGRAPHDB`, a JSON store with `{`, a SQLite store with `SQLite format 3`.
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
    /// A ``SQLiteStore`` database.
    case sqlite

    /// The kind a store at `url` gets when it is created, from its name alone, as
    /// ``StoreDescription/init(url:)`` decides it: a `.json` file is a JSON store, a `.sqlite`,
    /// `.sqlite3` or `.db` file a SQLite store, any other file a binary store.
    public init(inferredFrom url: URL) {
        let pathExtension = url.pathExtension.lowercased()
        if pathExtension == "json" {
            self = .json
        } else if StoreDescription.sqliteExtensions.contains(pathExtension) {
            self = .sqlite
        } else {
            self = .binary
        }
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        switch self {
        case .json: "JSON store"
        case .binary: "binary store"
        case .sqlite: "SQLite store"
        }
    }

    /// The kind of a store file's contents, from its first bytes.
    ///
    /// - Throws: `PersistenceError.Code.corruptStore` for an empty file;
    ///   `.unsupportedFormat` for a file that starts like neither kind.
    static func detect(_ bytes: [UInt8], url: URL) throws -> StoreFileKind {
        if bytes.starts(with: SQLiteStore.magic) { return .sqlite }
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
            url,
            expected: "a store file (a binary store starts with the bytes OGRAPHDB, a JSON store with '{', "
                + "a SQLite store with 'SQLite format 3')")
    }
}
