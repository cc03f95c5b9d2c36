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
/// 4. `rename` it over the file (atomic within a directory);
/// 5. `fsync` the directory, so the rename itself is durable.
///
/// On any failure the temporary file is removed and the old file is untouched.
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
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next(), radix: 16)
        let temporary = directory + "/" + temporaryNamePrefix + suffix
        let descriptor = try fileSystem.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
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
        do {
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.remove(temporary)
            throw error
        }
        try synchronizeDirectory()
    }

    /// Makes the directory's entries (a rename, a new file) durable.
    func synchronizeDirectory() throws {
        let descriptor = try fileSystem.open(directory, flags: O_RDONLY | O_DIRECTORY, mode: 0)
        defer { fileSystem.close(descriptor) }
        try fileSystem.synchronize(descriptor, path: directory)
    }

    /// Removes temporary files left by a crash in the middle of a write.
    func removeLeftoverTemporaryFiles() throws {
        for name in try fileSystem.contentsOfDirectory(directory) where name.hasPrefix(temporaryNamePrefix) {
            try fileSystem.remove(directory + "/" + name)
        }
    }
}
