import Foundation

extension StoreFileInspector {
    /// Writes the data of the store file at `source` as a new store file of another kind (or the
    /// same kind) at `destination`, keeping every object's key, version and values and every
    /// entity's next key. JSON, binary and SQLite stores convert to each other.
    ///
    /// The source is only read; a binary source's torn tail is left out, as opening the store
    /// would cut it off (the summary says so). The destination is written atomically under the
    /// store's lock, so it is never half-written and never replaced while a container has it open.
    ///
    /// For example:
    /// ```swift
    /// try StoreFileInspector.convert(
    ///     URL(fileURLWithPath: "fruits.store"), to: URL(fileURLWithPath: "fruits.json"))
    /// ```
    ///
    /// - Parameters:
    ///   - source: The store file to read.
    ///   - destination: Where to write the new store file.
    ///   - kind: The kind of store to write; `nil` picks it from the destination's name as
    ///     ``StoreFileKind/init(inferredFrom:)`` does (`.json` is JSON, `.sqlite`, `.sqlite3` and
    ///     `.db` SQLite, anything else binary).
    ///   - replacingExisting: Whether an existing file at `destination` may be replaced.
    /// - Returns: What was read and written.
    /// - Throws: The errors of ``snapshot(of:)`` for the source; `PersistenceError.Code.ioFailure`
    ///   when the destination exists and `replacingExisting` is false, is the source itself, or
    ///   cannot be written; `.storeLocked` when a container has the destination open.
    /// - Complexity: O(*n*) in the size of the source.
    @discardableResult
    public static func convert(
        _ source: URL, to destination: URL, as kind: StoreFileKind? = nil, replacingExisting: Bool = false
    ) throws -> StoreFileRewriteSummary {
        let kind = kind ?? StoreFileKind(inferredFrom: destination)
        let contents = try StoreFileContents(url: source)
        var file = try StoreFile(url: destination, fileSystem: POSIXFileSystem())
        guard try StoreFile(url: source, fileSystem: POSIXFileSystem()).path != file.path else {
            throw PersistenceError.destinationIsSource(destination)
        }
        try checkDestination(file, replacingExisting: replacingExisting)
        try file.lock()
        defer { file.unlock() }
        try checkDestination(file, replacingExisting: replacingExisting)
        if kind == .sqlite {
            let size = try SQLiteStore.writeFile(contents.snapshot, to: URL(fileURLWithPath: file.path))
            return summary(of: contents, destination: destination, kind: kind, size: size, wrote: true)
        }
        let bytes = encode(contents.snapshot, as: kind, pretty: true)
        try file.atomicFile.write(bytes)
        return summary(of: contents, destination: destination, kind: kind, size: bytes.count, wrote: true)
    }

    /// Rewrites the store file at `url` compactly, in place and atomically, with its own schema.
    ///
    /// A binary store becomes its header and one frame holding every object, dropping superseded
    /// and deleted records and any torn tail; a JSON store is rewritten in its canonical form
    /// (indented if it was, minimal if it was not); a SQLite store folds in its write-ahead log and
    /// is vacuumed. Keys, versions, values and next keys are kept.
    /// The store's lock is held throughout, so a store that a container has open is refused. A
    /// file that is already compact is left untouched.
    ///
    /// For example:
    /// ```swift
    /// let summary = try StoreFileInspector.compact(URL(fileURLWithPath: "fruits.store"))
    /// print(summary.bytesBefore, "→", summary.bytesAfter)
    /// ```
    ///
    /// - Returns: The sizes before and after, and what was dropped.
    /// - Throws: The errors of ``snapshot(of:)``; `PersistenceError.Code.storeLocked` when a
    ///   container has the store open; `.ioFailure` when the new file cannot be written.
    /// - Complexity: O(*n*) in the size of the file.
    @discardableResult
    public static func compact(_ url: URL) throws -> StoreFileRewriteSummary {
        try StoreFileContents.checkIsFile(url)
        var file = try StoreFile(url: url, fileSystem: POSIXFileSystem())
        try file.lock()
        defer { file.unlock() }
        let contents = try StoreFileContents(url: url)
        if contents.kind == .sqlite {
            let size = try SQLiteStore.vacuumFile(at: url)
            return summary(of: contents, destination: url, kind: .sqlite, size: size, wrote: true)
        }
        let pretty = contents.kind == .json && contents.bytes.contains(UInt8(ascii: "\n"))
        let bytes = encode(contents.snapshot, as: contents.kind, pretty: pretty)
        let changed = bytes != contents.bytes
        if changed { try file.atomicFile.write(bytes) }
        return summary(of: contents, destination: url, kind: contents.kind, size: bytes.count, wrote: changed)
    }

    private static func encode(_ snapshot: StoreSnapshot, as kind: StoreFileKind, pretty: Bool) -> [UInt8] {
        switch kind {
        case .json: JSONStoreDocument.encode(snapshot, pretty: pretty)
        // A SQLite file is written by `SQLiteStore.writeFile`, never from bytes.
        case .binary, .sqlite: BinaryFileStore.compactedFile(snapshot)
        }
    }

    private static func checkDestination(_ file: StoreFile, replacingExisting: Bool) throws {
        guard file.exists else { return }
        try StoreFileContents.checkIsFile(URL(fileURLWithPath: file.path))
        if !replacingExisting { throw PersistenceError.destinationExists(file.url) }
    }

    private static func summary(
        of contents: StoreFileContents, destination: URL, kind: StoreFileKind, size: Int, wrote: Bool
    ) -> StoreFileRewriteSummary {
        StoreFileRewriteSummary(
            source: contents.url, destination: destination, sourceKind: contents.kind, destinationKind: kind,
            bytesBefore: contents.bytes.count, bytesAfter: size, framesBefore: contents.frameCount,
            objectCount: contents.snapshot.count, droppedTornTailOffset: contents.tornTailOffset, wroteFile: wrote)
    }
}
