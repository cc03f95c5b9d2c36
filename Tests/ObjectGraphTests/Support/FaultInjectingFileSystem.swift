import Foundation

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system, counting every call that can fail and failing the ones chosen (by their
/// number, from 0) with a chosen `errno`. It also tracks whether the last rename reached a
/// directory `fsync` that succeeded: until then a power cut could undo it.
final class FaultInjectingFileSystem: FileSystem {
    private struct State {
        var calls: [String] = []
        var failing: [Int: Int32] = [:]
        var directories: Set<Int32> = []
        var hasUndurableRename = false
    }

    private let real = POSIXFileSystem()
    private let state = Locked(State())

    /// Fails the calls numbered `calls` with `errorNumber`.
    func fail(_ calls: Set<Int>, with errorNumber: Int32) {
        fail(Dictionary(uniqueKeysWithValues: calls.map { ($0, errorNumber) }))
    }

    /// Fails each call numbered by a key with the `errno` it maps to.
    func fail(_ failures: [Int: Int32]) {
        state.withLock { $0.failing = failures }
    }

    /// The calls made so far, each as "operation path".
    var calls: [String] { state.withLock { $0.calls } }

    /// Whether a rename succeeded that no successful directory `fsync` has followed.
    var hasUndurableRename: Bool { state.withLock { $0.hasUndurableRename } }

    /// Counts a call; throws the injected failure if it is one of the chosen ones.
    private func check(_ operation: String, _ path: String) throws {
        let failure: Int32? = state.withLock { state in
            let number = state.calls.count
            state.calls.append(operation + " " + path)
            return state.failing[number]
        }
        if let failure {
            errno = failure
            throw PersistenceError.io(operation, path: path)
        }
    }

    func open(_ path: String, flags: Int32, mode: mode_t) throws -> Int32 {
        try check(flags & O_DIRECTORY != 0 ? "opendir" : "open", path)
        let descriptor = try real.open(path, flags: flags, mode: mode)
        if flags & O_DIRECTORY != 0 { state.withLock { _ = $0.directories.insert(descriptor) } }
        return descriptor
    }
    func close(_ descriptor: Int32) {
        state.withLock { _ = $0.directories.remove(descriptor) }
        real.close(descriptor)
    }
    func size(_ descriptor: Int32, path: String) throws -> Int {
        try check("fstat", path)
        return try real.size(descriptor, path: path)
    }
    func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws -> [UInt8] {
        try check("read", path)
        return try real.read(descriptor, count: count, at: offset, path: path)
    }
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws {
        try check("write", path)
        try real.write(descriptor, bytes, at: offset, path: path)
    }
    func synchronize(_ descriptor: Int32, path: String) throws {
        let isDirectory = state.withLock { $0.directories.contains(descriptor) }
        try check(isDirectory ? "fsyncdir" : "fsync", path)
        try real.synchronize(descriptor, path: path)
        if isDirectory { state.withLock { $0.hasUndurableRename = false } }
    }
    func truncate(_ descriptor: Int32, to size: Int, path: String) throws {
        try check("ftruncate", path)
        try real.truncate(descriptor, to: size, path: path)
    }
    func rename(_ source: String, to destination: String) throws {
        try check("rename", destination)
        try real.rename(source, to: destination)
        state.withLock { $0.hasUndurableRename = true }
    }
    func link(_ source: String, to destination: String) throws {
        try check("link", destination)
        try real.link(source, to: destination)
    }
    func remove(_ path: String) throws {
        try check("unlink", path)
        try real.remove(path)
    }
    func fileType(_ descriptor: Int32, path: String) throws -> mode_t {
        try check("fstat", path)
        return try real.fileType(descriptor, path: path)
    }
    func entryStatus(_ path: String) -> (type: mode_t, owner: uid_t)? { real.entryStatus(path) }
    func permissions(of path: String) -> mode_t? { real.permissions(of: path) }
    func setPermissions(_ descriptor: Int32, _ mode: mode_t, path: String) throws {
        try check("fchmod", path)
        try real.setPermissions(descriptor, mode, path: path)
    }
    func contentsOfDirectory(_ path: String) throws -> [String] {
        try check("readdir", path)
        return try real.contentsOfDirectory(path)
    }
    func tryLock(_ descriptor: Int32) -> Bool { real.tryLock(descriptor) }
}
