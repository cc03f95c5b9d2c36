import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the file stores share: the resolved path, the OS lock that keeps one live container
/// per file, and the atomic-write protocol.
///
/// The lock is an exclusive `flock` on a sidecar file `<store>.lock`, never deleted: it holds
/// across in-process and cross-process openers, and it survives the store file being replaced by
/// a rename (a lock on the store file itself would be left on the old inode).
struct StoreFile {
    let url: URL
    let fileSystem: any FileSystem
    /// The store file's path, with symlinks resolved to their target.
    let path: String
    private(set) var lockDescriptor: Int32 = -1
    /// Set when a write's outcome is unknown (see `AtomicFile`); saves fail until reopened.
    var needsReopen = false
    /// How many times to try the lock, 5 ms apart, before reporting `storeLocked`.
    static let lockAttempts = 20

    var atomicFile: AtomicFile { AtomicFile(fileSystem: fileSystem, path: path) }

    /// Resolves `url` and checks that its directory exists.
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` naming a missing directory.
    init(url: URL, fileSystem: any FileSystem) throws {
        self.url = url
        self.fileSystem = fileSystem
        self.path = try Self.resolve(url)
    }

    /// Takes the exclusive lock and removes temporary files a crash left behind.
    ///
    /// - Throws: `PersistenceError.Code.storeLocked` naming the file when another container, in
    ///   this process or another, has it open.
    mutating func lock() throws {
        let lockPath = path + ".lock"
        // Never follow a symlink at the lock's path (it would create or lock its target), and
        // never block opening a FIFO planted there.
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(lockPath, flags: O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, mode: 0o600)
        } catch {
            if let status = fileSystem.entryStatus(lockPath), status.type != S_IFREG {
                throw PersistenceError.notARegularFile(lockPath, type: status.type)
            }
            throw error
        }
        do {
            let type = try fileSystem.fileType(descriptor, path: lockPath)
            guard type == S_IFREG else { throw PersistenceError.notARegularFile(lockPath, type: type) }
        } catch {
            fileSystem.close(descriptor)
            throw error
        }
        // A lock released a moment ago can still be held for a few milliseconds by a child
        // process forked (but not yet exec'd) while its descriptor was open: retry briefly
        // before reporting the store as in use.
        var attempts = 0
        while !fileSystem.tryLock(descriptor) {
            attempts += 1
            guard attempts < Self.lockAttempts else {
                fileSystem.close(descriptor)
                throw PersistenceError.storeLocked(url)
            }
            usleep(5_000)
        }
        lockDescriptor = descriptor
        do {
            try atomicFile.removeLeftoverTemporaryFiles()
            // A migration killed while writing the backup (`<store>.backup`, written under this
            // lock) leaves that file's temporary: it goes with the store's own.
            try AtomicFile(fileSystem: fileSystem, path: atomicFile.path + ".backup").removeLeftoverTemporaryFiles()
        } catch {
            unlock()
            throw error
        }
    }

    /// Releases the lock.
    mutating func unlock() {
        if lockDescriptor >= 0 { fileSystem.close(lockDescriptor) }
        lockDescriptor = -1
    }

    /// Whether the store file exists.
    var exists: Bool { fileSystem.permissions(of: path) != nil }

    /// The whole file.
    ///
    /// - Throws: `PersistenceError.Code.ioFailure` when the path names something other than a
    ///   regular file (a FIFO would block the open, and the read, forever).
    func readAll() throws -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading waits for a writer; on a regular file it does nothing.
        let descriptor = try fileSystem.open(path, flags: O_RDONLY | O_NONBLOCK, mode: 0)
        defer { fileSystem.close(descriptor) }
        let type = try fileSystem.fileType(descriptor, path: path)
        guard type == S_IFREG else { throw PersistenceError.notARegularFile(path, type: type) }
        return try fileSystem.read(descriptor, count: fileSystem.size(descriptor, path: path), at: 0, path: path)
    }

    private static func resolve(_ url: URL) throws -> String {
        let path = url.standardizedFileURL.path
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let directory = url.deletingLastPathComponent().standardizedFileURL.path
        guard let resolvedDirectory = realpath(directory, nil) else {
            throw PersistenceError.missingDirectory(URL(fileURLWithPath: directory), store: url)
        }
        defer { free(resolvedDirectory) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: String(cString: resolvedDirectory), isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw PersistenceError.missingDirectory(URL(fileURLWithPath: directory), store: url)
        }
        let base = String(cString: resolvedDirectory)
        return (base == "/" ? "" : base) + "/" + url.lastPathComponent
    }
}
