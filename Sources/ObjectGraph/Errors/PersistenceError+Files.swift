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
            message: "The store file \(url.path) is damaged\(place): \(excerpt(reason, limit: 400)). Restore it "
                + "from a backup, "
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

/// An error's message, or its description if it is not a `PersistenceError`.
private func describe(_ error: any Error) -> String {
    (error as? PersistenceError)?.message ?? String(describing: error)
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

    /// A rewrite whose rename could be neither made durable nor undone: the file holds the old or
    /// the new contents.
    static func writeOutcomeUnknown(path: String, first: any Error, second: (any Error)?) -> PersistenceError {
        let undo =
            second.map { "putting the previous file back failed too (\(describe($0)))" }
            ?? "the file system keeps no second name to put the previous file back from"
        return PersistenceError(
            code: .ioFailure,
            message: "Saving \(path) failed: the directory could not be synchronized (\(describe(first))), and "
                + "\(undo). The file holds the previous "
                + "or the new contents; the store refuses further saves. Close the container, check the disk, "
                + "and open the store again.",
            fileURL: URL(fileURLWithPath: path), underlying: first)
    }

    /// A store path naming something other than a regular file (a FIFO, a directory, a device).
    static func notARegularFile(_ path: String, type: mode_t) -> PersistenceError {
        let kind: String
        switch type {
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        case S_IFLNK: kind = "a symbolic link"
        default: kind = "not a regular file"
        }
        return PersistenceError(
            code: .ioFailure,
            message: "\(path) is \(kind), not a regular file, so it cannot be a store. Choose another path, or "
                + "remove what is there.",
            fileURL: URL(fileURLWithPath: path))
    }

    static func storeNeedsReopen(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "An earlier failed save to \(url.path) could not be undone on disk, so its outcome is unknown. "
                + "Close the container and open the store again; opening it recovers the last complete save.",
            fileURL: url)
    }
}
