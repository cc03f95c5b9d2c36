import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PersistenceError {
    /// A failed system call on `path`, with the system's reason from `errno`.
    static func io(_ operation: String, path: String) -> PersistenceError {
        let code = errno
        let reason = String(cString: strerror(code))
        return PersistenceError(
            code: .ioFailure,
            message: "\(operation) failed for \(path): \(reason) (errno \(code)). Check that the disk has space "
                + "and the file and its directory are writable.",
            fileURL: URL(fileURLWithPath: path),
            underlying: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
    }

    static func storeLocked(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .storeLocked,
            message: "The store \(url.path) is open in another container, in this process or another. "
                + "Close that container (let it and its contexts go) before opening the store again.",
            fileURL: url)
    }

    static func missingDirectory(_ directory: URL, store: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "The directory \(directory.path) of the store \(store.lastPathComponent) does not exist. "
                + "Create it before opening the store.",
            fileURL: directory)
    }

    /// A store file whose bytes do not follow its format.
    static func corruptFile(_ url: URL, offset: Int?, _ reason: String) -> PersistenceError {
        let place = offset.map { " at byte \($0)" } ?? ""
        return PersistenceError(
            code: .corruptStore,
            message: "The store file \(url.path) is damaged\(place): \(reason). Restore it from a backup, "
                + "or check it with `objectgraph verify`.",
            fileURL: url, byteOffset: offset)
    }

    static func unsupportedVersion(_ url: URL, version: Int, supported: Int) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "The store file \(url.path) needs format version \(version), but this version of "
                + "ObjectGraph reads up to \(supported). Open it with a newer ObjectGraph.",
            fileURL: url)
    }

    static func notAStore(_ url: URL, expected: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "The file \(url.path) is not \(expected). Check the path, or pick the store kind that "
                + "matches the file.",
            fileURL: url, byteOffset: 0)
    }
}

extension PersistenceError {
    static func storeClosed(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .storeClosed,
            message: "The store \(url.path) is closed. Open it in a container before saving to it.",
            fileURL: url)
    }
}

extension PersistenceError {
    static func saveTooLarge(_ url: URL, bytes: Int) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "One save to \(url.path) would write \(bytes) bytes, more than a binary store frame holds "
                + "(1 GiB). Save in smaller batches.",
            fileURL: url)
    }

    static func storeNeedsReopen(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "An earlier failed save to \(url.path) could not be undone on disk. Close the container and "
                + "open the store again; opening it recovers the last complete save.",
            fileURL: url)
    }
}
