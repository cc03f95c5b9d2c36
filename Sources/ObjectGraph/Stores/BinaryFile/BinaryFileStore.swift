import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that keeps its data in a compact binary log: fast, crash-safe, self-describing.
///
/// Each save appends one checksummed frame holding just that save's changes, and `fsync`s it
/// before `save()` returns, so a save costs in proportion to its change, not to the store.
/// Opening replays the frames; a torn frame at the end (a crash during an append) is detected by
/// its checksum and cut off, keeping every frame before it. When the log grows past twice the
/// size of the live data, the store rewrites itself compactly and atomically. The file carries
/// the model's schema; opening it with a different model is a `modelMismatch` error. Symlinked
/// paths are resolved to their target, and a missing file is created empty. The format and the
/// commit protocol are in Docs/StoreFormats.md and Docs/Recovery.md.
///
/// For example:
/// ```swift
/// let store = BinaryFileStore(url: URL(fileURLWithPath: "fruits.store"))
/// let container = try PersistentContainer(model: model, store: store)
/// ```
///
/// Core Data: a SQLite store.
public final class BinaryFileStore: PersistentStore {
    /// The store file's location, as given.
    public let url: URL
    /// Whether the store was opened read-only: ``load(model:)`` reads the file without taking its
    /// lock (other containers, read-only or not, may open it too) and never creates, repairs or
    /// compacts it (a torn last frame is skipped, not cut off), and every ``save(_:)`` throws
    /// `PersistenceError.Code.readOnlyStore`.
    ///
    /// Core Data: `NSReadOnlyPersistentStoreOption`.
    public let isReadOnly: Bool
    /// What ``load(model:)`` does when the file was written with another model: migrate (the
    /// default), refuse, or erase.
    public let migration: MigrationOptions
    let fileSystem: any FileSystem
    /// Compact when the file is this many times the live data's size...
    let compactionRatio: Int
    /// ...and larger than this many bytes.
    let compactionThreshold: Int

    private struct OpenFile {
        var file: StoreFile
        var descriptor: Int32
        var size: Int
        var liveBytes: Int
        var snapshot: StoreSnapshot
        /// Set when a failed append could not be undone; saves fail until the store is reopened.
        var isBroken = false
    }

    private let state = Locked<OpenFile?>(nil)

    /// A store at `url`; read-only if `isReadOnly`; migrated on open as `migration` says.
    public convenience init(url: URL, isReadOnly: Bool = false, migration: MigrationOptions = .automatic) {
        self.init(url: url, isReadOnly: isReadOnly, migration: migration, fileSystem: POSIXFileSystem())
    }

    init(
        url: URL, isReadOnly: Bool = false, migration: MigrationOptions = .automatic, fileSystem: any FileSystem,
        compactionRatio: Int = 2, compactionThreshold: Int = 64 << 10
    ) {
        self.url = url
        self.isReadOnly = isReadOnly
        self.migration = migration
        self.fileSystem = fileSystem
        self.compactionRatio = compactionRatio
        self.compactionThreshold = compactionThreshold
    }

    /// Opens the store for one container and returns everything it holds.
    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        try load(model: model, migration: migration)
    }

    func load(model: ManagedObjectModel, migration: MigrationOptions) throws -> StoreSnapshot {
        try state.withLock { state in
            guard state == nil else { throw PersistenceError.storeLocked(url) }
            var file = try StoreFile(url: url, fileSystem: fileSystem)
            if isReadOnly {
                guard file.exists else { throw PersistenceError.readOnlyStoreMissing(url) }
                let replay = try replayMigrating(try file.readAll(), model: model, migration: migration, writingTo: nil)
                // No descriptor is kept: saves are refused before they would use it.
                state = OpenFile(
                    file: file, descriptor: -1, size: replay.validEnd, liveBytes: replay.liveBytes,
                    snapshot: replay.snapshot)
                return replay.snapshot
            }
            try file.lock()
            do {
                if !file.exists {
                    try file.atomicFile.write(Self.compactedFile(StoreSnapshot(model: model)))
                } else {
                    // The file at the path may be a compaction's rename whose directory fsync never
                    // ran (a crash, or an error whose outcome was unknown): make its name durable
                    // before acknowledging saves appended to it.
                    try file.atomicFile.synchronizeDirectory()
                }
                let replay = try replayMigrating(
                    try file.readAll(), model: model, migration: migration, writingTo: file)
                let descriptor = try fileSystem.open(file.path, flags: O_RDWR, mode: 0)
                var open = OpenFile(
                    file: file, descriptor: descriptor, size: replay.validEnd, liveBytes: replay.liveBytes,
                    snapshot: replay.snapshot)
                if replay.hasTornTail {
                    do {
                        try fileSystem.truncate(descriptor, to: replay.validEnd, path: file.path)
                        try fileSystem.synchronize(descriptor, path: file.path)
                    } catch {
                        fileSystem.close(descriptor)
                        throw error
                    }
                }
                compactIfNeeded(&open)
                state = open
                return replay.snapshot
            } catch {
                file.unlock()
                throw error
            }
        }
    }

    /// Makes one change set durable: all of it, or none of it if it throws.
    public func save(_ changes: StoreChangeSet) throws {
        try state.withLock { state in
            guard var open = state else { throw PersistenceError.storeClosed(url) }
            guard !isReadOnly else { throw PersistenceError.readOnlyStore("The store \(url.path)", url: url) }
            guard !open.isBroken else { throw PersistenceError.storeNeedsReopen(url) }
            let frame = BinaryStoreFrame.encodeChanges(changes, previous: open.snapshot)
            guard frame.count - BinaryStoreFrame.headerSize <= BinaryStoreFrame.maximumPayload else {
                throw PersistenceError.saveTooLarge(url, bytes: frame.count)
            }
            do {
                try frame.withUnsafeBytes {
                    try fileSystem.write(open.descriptor, $0, at: open.size, path: open.file.path)
                }
                try fileSystem.synchronize(open.descriptor, path: open.file.path)
            } catch {
                // Undo the partial append so that the file holds exactly the saves that returned.
                do {
                    try fileSystem.truncate(open.descriptor, to: open.size, path: open.file.path)
                    try fileSystem.synchronize(open.descriptor, path: open.file.path)
                } catch {
                    open.isBroken = true
                }
                state = open
                throw error
            }
            open.size += frame.count
            open.liveBytes += Self.liveBytesDelta(of: changes, frameSize: frame.count, before: open)
            open.snapshot = changes.snapshot
            compactIfNeeded(&open)
            state = open
        }
    }

    /// Releases the store so that another container can open it.
    public func close() {
        state.withLock { state in
            guard var open = state else { return }
            if open.descriptor >= 0 { fileSystem.close(open.descriptor) }
            open.file.unlock()
            state = nil
        }
    }

    deinit { close() }

    /// Rewrites the file compactly when the log outgrew the live data. A failed compaction
    /// leaves the (valid) log as it was: the save it follows has already succeeded.
    private func compactIfNeeded(_ open: inout OpenFile) {
        guard open.size > compactionThreshold, open.size > compactionRatio * max(open.liveBytes, 1) else { return }
        let frame = BinaryStoreFrame.encodeSnapshot(open.snapshot)
        // A snapshot frame past the format's limit could not be read back: keep the log instead.
        guard frame.count - BinaryStoreFrame.headerSize <= BinaryStoreFrame.maximumPayload else { return }
        let bytes = BinaryStoreHeader.encode(open.snapshot.model.entities) + frame
        var outcomeUnknown = false
        do {
            try open.file.atomicFile.write(bytes, outcomeUnknown: &outcomeUnknown)
        } catch {
            // A failed compaction leaves the old log at the path, durably (AtomicFile undoes a
            // rename whose directory fsync failed): keep appending to it. If even that is unknown,
            // the descriptor may name a file the path no longer reaches, or whose name a power cut
            // would bring back without the saves appended since: refuse saves until reopened.
            if outcomeUnknown { open.isBroken = true }
            return
        }
        // The compacted file is at the path, and its name is durable: append to it from now on.
        guard let descriptor = try? fileSystem.open(open.file.path, flags: O_RDWR, mode: 0) else {
            open.isBroken = true
            return
        }
        guard let size = try? fileSystem.size(descriptor, path: open.file.path) else {
            fileSystem.close(descriptor)
            open.isBroken = true
            return
        }
        fileSystem.close(open.descriptor)
        open.descriptor = descriptor
        open.size = size
        open.liveBytes = bytes.count
    }

    /// A whole file: the header and one snapshot frame.
    static func compactedFile(_ snapshot: StoreSnapshot) -> [UInt8] {
        BinaryStoreHeader.encode(snapshot.model.entities) + BinaryStoreFrame.encodeSnapshot(snapshot)
    }

    /// How a save changes the estimate of the live data's size: inserted records add their share
    /// of the frame; updates replace records of about the same size; deletes remove an average one.
    private static func liveBytesDelta(of changes: StoreChangeSet, frameSize: Int, before open: OpenFile) -> Int {
        let writes = changes.inserted.count + changes.updated.count
        let perWrite = writes > 0 ? frameSize / writes : 0
        let average = open.snapshot.count > 0 ? open.liveBytes / open.snapshot.count : 0
        // The objects of emptied entities are in `deleted` too; each took an average share.
        return perWrite * changes.inserted.count - average * changes.deletedCount
    }

    /// The number of bytes in the store file (for tools and tests).
    var fileSize: Int? { state.withLock { $0?.size } }
}
