import Foundation

/// Reads, checks and rewrites store files without the app that wrote them.
///
/// Every store file embeds its schema, so the inspector builds the model from the file itself
/// (untyped entities, as ``ManagedObjectModel/init(entities:)`` makes them) and needs nothing
/// else. Reading functions (``inspect(_:)``, ``verify(_:)``, ``model(of:)``, ``snapshot(of:)``,
/// ``dump(_:entity:_:)``) read the file whole and never write to it or take its lock; the
/// rewriting functions (``convert(_:to:as:replacingExisting:)``, ``compact(_:)``) take the store's
/// lock and replace files atomically, as a store's own save does. The `objectgraph` command-line
/// tool is a thin layer over this type.
///
/// For example:
/// ```swift
/// let url = URL(fileURLWithPath: "fruits.store")
/// if let problem = StoreFileInspector.verify(url) { print(problem.message) }
/// let report = try StoreFileInspector.inspect(url)
/// print(report.kind, report.objectCount)
/// ```
public enum StoreFileInspector {
    /// The kind of the store file at `url`, from its first bytes (not its name).
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` for a missing or unreadable file;
    ///   `.unsupportedFormat` for a directory or a file that is no store; `.corruptStore` for an
    ///   empty file.
    public static func kind(of url: URL) throws -> StoreFileKind {
        try StoreFileKind.detect(try StoreFileContents.readBytes(url), url: url)
    }

    /// Reads the store file at `url` whole and describes it: kind, format version, size, schema,
    /// object counts and, for a binary store, its frames and any torn tail.
    ///
    /// A torn tail (an incomplete last frame) does not make this fail: it is reported in
    /// ``StoreFileReport/tornTailOffset``, and the counts are those of the complete saves. A
    /// damaged first frame (written atomically, so never torn by a crash) is a `corruptStore` error.
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` for a missing or unreadable file;
    ///   `.unsupportedFormat` for a directory, a file that is no store or a newer format version;
    ///   `.corruptStore` naming the byte offset of the first damage.
    /// - Complexity: O(*n*) in the size of the file.
    public static func inspect(_ url: URL) throws -> StoreFileReport {
        StoreFileReport(try StoreFileContents(url: url))
    }

    /// Checks the store file at `url` completely and returns its first problem, or `nil` when it
    /// is sound.
    ///
    /// For a binary store this checks the header and its checksum, every frame's length and
    /// checksum, every operation and value in every frame, and every relationship's target; an
    /// incomplete last frame (a torn tail) is a problem naming its byte offset, and so is a damaged
    /// first frame (which no crash can cause: the file was cut short or overwritten). For a JSON store it
    /// decodes the whole document against its own schema. The file is only read: it is never
    /// modified, truncated or locked.
    ///
    /// For example:
    /// ```swift
    /// if let problem = StoreFileInspector.verify(url) {
    ///     print("damaged at byte \(problem.byteOffset ?? 0): \(problem.message)")
    /// }
    /// ```
    ///
    /// - Returns: `nil` when the file is sound; otherwise a `PersistenceError` whose code is
    ///   `ioFailure`, `unsupportedFormat` or `corruptStore` and whose ``PersistenceError/byteOffset``
    ///   says where the damage starts, when it is known.
    /// - Complexity: O(*n*) in the size of the file.
    public static func verify(_ url: URL) -> PersistenceError? {
        do {
            return try StoreFileContents(url: url).problem
        } catch let error as PersistenceError {
            return error
        } catch {
            return .corruptFile(url, offset: nil, "\(error)")
        }
    }

    /// The model the store file's schema describes, with one untyped entity per stored entity.
    ///
    /// Use it to open a store without the app's classes: objects come back as `ManagedObject`
    /// instances read with ``ManagedObject/value(forKey:)``. Default values and renaming
    /// identifiers are not part of a stored schema.
    ///
    /// For example:
    /// ```swift
    /// let model = try StoreFileInspector.model(of: url)
    /// let container = try PersistentContainer(model: model, storeDescription: .binaryFile(url))
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` for a missing or unreadable file;
    ///   `.unsupportedFormat` for a file that is no store; `.corruptStore` for a damaged or
    ///   invalid schema.
    public static func model(of url: URL) throws -> ManagedObjectModel {
        let bytes = try StoreFileContents.readBytes(url)
        return try StoreFileContents.model(from: bytes, kind: try StoreFileKind.detect(bytes, url: url), url: url)
    }

    /// Every object the store file holds, read with the model of its own schema.
    ///
    /// A binary store's torn tail is left out, as opening the store would cut it off.
    ///
    /// - Throws: The errors of ``inspect(_:)``, and `PersistenceError.Code.corruptStore` when a
    ///   binary store's first frame is damaged (its objects cannot be read).
    /// - Complexity: O(*n*) in the size of the file.
    public static func snapshot(of url: URL) throws -> StoreSnapshot {
        let contents = try StoreFileContents(url: url)
        return contents.snapshot
    }
}
