import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents all at once, so that a crash leaves either the old or the new
/// contents, never a mix (the steps are numbered in Docs/Recovery.md):
///
/// 1. create a temporary file in the same directory with `O_EXCL`, mode 0600, named with the
///    reserved prefix `.objectgraph-tmp-`;
/// 2. give it the existing file's permissions, if the file exists;
/// 3. write the bytes and `fsync` the temporary file;
/// 4. give the existing file a second name (a hard link with the same prefix), so that the old
///    contents can be put back;
/// 5. `rename` the temporary file over the file (atomic within a directory);
/// 6. `fsync` the directory, so the rename itself is durable, and remove the second name.
///
/// On a failure before step 6 the temporary file is removed and the old file is untouched. When
/// the directory `fsync` fails, the rename may or may not reach the disk, so the old file is
/// renamed back into place and the directory `fsync`ed again: the write fails and the old
/// contents stay, in memory and on disk. Only when that too fails is the outcome unknown (the
/// caller is told through `outcomeUnknown`, and refuses further writes until reopened).
struct AtomicFile {
    let fileSystem: any FileSystem
    /// The resolved path of the file (symlinks already followed).
    let path: String

    static let temporaryPrefix = ".objectgraph-tmp-"

    var directory: String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let joined = parts.dropLast().joined(separator: "/")
        return joined.isEmpty ? "/" : joined
    }

    var fileName: String { String(path.split(separator: "/").last ?? "") }

    /// The prefix of this file's temporary files.
    var temporaryNamePrefix: String { Self.temporaryPrefix + fileName + "-" }

    /// Writes `bytes` as the file's new contents, durably.
    func write(_ bytes: [UInt8]) throws {
        var outcomeUnknown = false
        try write(bytes, outcomeUnknown: &outcomeUnknown)
    }

    /// Writes `bytes` as the file's new contents, durably. When it throws, the old contents are
    /// in place, unless `outcomeUnknown` is set: then the file holds the old or the new contents
    /// and no further write should be trusted until the file is read again.
    func write(_ bytes: [UInt8], outcomeUnknown: inout Bool) throws {
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next(), radix: 16)
        let temporary = directory + "/" + temporaryNamePrefix + suffix
        let descriptor = try fileSystem.open(
            temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
        do {
            if let mode = fileSystem.permissions(of: path) {
                try fileSystem.setPermissions(descriptor, mode, path: temporary)
            }
            try bytes.withUnsafeBytes { try fileSystem.write(descriptor, $0, at: 0, path: temporary) }
            try fileSystem.synchronize(descriptor, path: temporary)
            fileSystem.close(descriptor)
        } catch {
            fileSystem.close(descriptor)
            try? fileSystem.remove(temporary)
            throw error
        }
        // The old file's second name, to put it back if the rename cannot be made durable.
        var backup: String?
        let existed = fileSystem.entryStatus(path) != nil
        if existed {
            let name = temporary + "-old"
            do {
                try fileSystem.link(path, to: name)
                backup = name
            } catch {
                // A file system without hard links (FAT, some network shares) still gets atomic
                // saves; only a failed directory fsync then leaves the outcome unknown.
                guard Self.isLinkUnsupported(error) else {
                    try? fileSystem.remove(temporary)
                    throw error
                }
            }
        }
        do {
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.remove(temporary)
            if let backup { try? fileSystem.remove(backup) }
            throw error
        }
        do {
            try synchronizeDirectory()
        } catch {
            // After a failed fsync nothing written before it can be trusted (PostgreSQL's
            // "fsyncgate"): the rename may be lost by a power cut, or kept. Undo it, so that the
            // file is old both now and after a power cut, and the failed write says so.
            if existed && backup == nil {
                // No second name to put back: the old contents are gone from the directory.
                outcomeUnknown = true
                throw PersistenceError.writeOutcomeUnknown(path: path, first: error, second: nil)
            }
            do {
                if let backup { try fileSystem.rename(backup, to: path) } else { try fileSystem.remove(path) }
                try synchronizeDirectory()
            } catch let second {
                outcomeUnknown = true
                throw PersistenceError.writeOutcomeUnknown(path: path, first: error, second: second)
            }
            throw error
        }
        if let backup { try? fileSystem.remove(backup) }
    }

    /// Whether `error` says that the file system cannot make hard links at all.
    static func isLinkUnsupported(_ error: any Error) -> Bool {
        guard let code = ((error as? PersistenceError)?.underlying as? POSIXError)?.code else { return false }
        let unsupported: [POSIXErrorCode] = [.EPERM, .EOPNOTSUPP, .EMLINK, .ENOSYS]
        return unsupported.contains(code)
    }

    /// Makes the directory's entries (a rename, a new file) durable.
    func synchronizeDirectory() throws {
        let descriptor = try fileSystem.open(directory, flags: O_RDONLY | O_DIRECTORY, mode: 0)
        defer { fileSystem.close(descriptor) }
        try fileSystem.synchronize(descriptor, path: directory)
    }

    /// Removes temporary files left by a crash in the middle of a write: regular files (not
    /// symlinks, directories or FIFOs) owned by this process's user. Anything else with the
    /// reserved prefix is not ours and is left alone, as is a file that cannot be removed.
    func removeLeftoverTemporaryFiles() throws {
        let user = geteuid()
        for name in try fileSystem.contentsOfDirectory(directory) where name.hasPrefix(temporaryNamePrefix) {
            let leftover = directory + "/" + name
            guard let status = fileSystem.entryStatus(leftover), status.type == S_IFREG, status.owner == user
            else { continue }
            try? fileSystem.remove(leftover)
        }
    }
}
