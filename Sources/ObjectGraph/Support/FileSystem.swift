import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the file stores use: a seam so that tests can inject failures (a full
/// disk, a failing fsync) without a broken disk. Every failure is a `PersistenceError` with code
/// `ioFailure` naming the file and the system's reason.
protocol FileSystem: Sendable {
    func open(_ path: String, flags: Int32, mode: mode_t) throws -> Int32
    func close(_ descriptor: Int32)
    func size(_ descriptor: Int32, path: String) throws -> Int
    func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws -> [UInt8]
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws
    func synchronize(_ descriptor: Int32, path: String) throws
    func truncate(_ descriptor: Int32, to size: Int, path: String) throws
    func rename(_ source: String, to destination: String) throws
    /// Gives the file at `source` a second name, `destination` (a hard link).
    func link(_ source: String, to destination: String) throws
    func remove(_ path: String) throws
    /// The type bits (`st_mode & S_IFMT`) of an open file.
    func fileType(_ descriptor: Int32, path: String) throws -> mode_t
    /// The type bits and owner of the entry at `path` itself (a symlink is not followed), or nil
    /// if there is none.
    func entryStatus(_ path: String) -> (type: mode_t, owner: uid_t)?
    func permissions(of path: String) -> mode_t?
    func setPermissions(_ descriptor: Int32, _ mode: mode_t, path: String) throws
    func contentsOfDirectory(_ path: String) throws -> [String]
    func tryLock(_ descriptor: Int32) -> Bool
}

/// The real file system, through POSIX calls.
struct POSIXFileSystem: FileSystem {
    func open(_ path: String, flags: Int32, mode: mode_t) throws -> Int32 {
        let descriptor = retryingOnInterrupt { systemOpen(path, flags | O_CLOEXEC, mode) }
        guard descriptor >= 0 else { throw PersistenceError.io("open", path: path) }
        return descriptor
    }

    func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    func size(_ descriptor: Int32, path: String) throws -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw PersistenceError.io("fstat", path: path) }
        return Int(info.st_size)
    }

    func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws -> [UInt8] {
        // Read into uninitialized storage: zeroing a whole store's bytes first cost a pass over
        // them on every open. The array holds the bytes read (fewer at an early end of file).
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let result = retryingOnInterrupt {
                    pread(
                        descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                }
                guard result >= 0 else { throw PersistenceError.io("read", path: path) }
                guard result > 0 else { break }
                initialized += result
            }
        }
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws {
        var done = 0
        while done < bytes.count {
            let result = retryingOnInterrupt {
                pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            guard result > 0 else { throw PersistenceError.io("write", path: path) }
            done += result
        }
    }

    func synchronize(_ descriptor: Int32, path: String) throws {
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw PersistenceError.io("fsync", path: path) }
    }

    func truncate(_ descriptor: Int32, to size: Int, path: String) throws {
        guard retryingOnInterrupt({ ftruncate(descriptor, off_t(size)) }) == 0 else {
            throw PersistenceError.io("ftruncate", path: path)
        }
    }

    func rename(_ source: String, to destination: String) throws {
        guard systemRename(source, destination) == 0 else { throw PersistenceError.io("rename", path: destination) }
    }

    func link(_ source: String, to destination: String) throws {
        guard systemLink(source, destination) == 0 else { throw PersistenceError.io("link", path: destination) }
    }

    func fileType(_ descriptor: Int32, path: String) throws -> mode_t {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw PersistenceError.io("fstat", path: path) }
        return info.st_mode & S_IFMT
    }

    func entryStatus(_ path: String) -> (type: mode_t, owner: uid_t)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT, info.st_uid)
    }

    func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw PersistenceError.io("unlink", path: path) }
    }

    func permissions(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    func setPermissions(_ descriptor: Int32, _ mode: mode_t, path: String) throws {
        guard fchmod(descriptor, mode) == 0 else { throw PersistenceError.io("fchmod", path: path) }
    }

    func contentsOfDirectory(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw PersistenceError.io("opendir", path: path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    func tryLock(_ descriptor: Int32) -> Bool {
        retryingOnInterrupt { flock(descriptor, LOCK_EX | LOCK_NB) } == 0
    }
}

private func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

// The C functions under names that do not collide with the protocol's methods.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Darwin)
        Darwin.open(path, flags, mode)
    #elseif canImport(Musl)
        Musl.open(path, flags, mode)
    #else
        Glibc.open(path, flags, mode)
    #endif
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Darwin)
        Darwin.rename(source, destination)
    #elseif canImport(Musl)
        Musl.rename(source, destination)
    #else
        Glibc.rename(source, destination)
    #endif
}

private func systemLink(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Darwin)
        Darwin.link(source, destination)
    #elseif canImport(Musl)
        Musl.link(source, destination)
    #else
        Glibc.link(source, destination)
    #endif
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        Darwin.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #else
        Glibc.close(descriptor)
    #endif
}
