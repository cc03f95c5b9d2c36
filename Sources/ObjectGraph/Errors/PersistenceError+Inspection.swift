import Foundation

// The failures of the store file tools (`StoreFileInspector` and the `objectgraph` command).
extension PersistenceError {
    static func fileNotFound(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "The file \(url.path) does not exist. Check the path.",
            fileURL: url)
    }

    /// `what` says what it is instead: "a directory", for example.
    static func notAFile(_ url: URL, _ what: String) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "\(url.path) is \(what), not a store file. Name the store file itself.",
            fileURL: url)
    }

    static func tornTail(_ url: URL, offset: Int, length: Int) -> PersistenceError {
        PersistenceError(
            code: .corruptStore,
            message: "The store file \(url.path) ends in an incomplete save at byte \(offset) (\(length) bytes whose "
                + "frame is cut short or fails its checksum, as a crash during a save leaves it). Opening the store, "
                + "or `objectgraph compact`, cuts them off and keeps every complete save.",
            fileURL: url, byteOffset: offset)
    }

    static func damagedFirstFrame(_ url: URL, offset: Int) -> PersistenceError {
        corruptFile(
            url, offset: offset,
            "its first frame, the snapshot written atomically when the file was created or compacted, is cut "
                + "short or fails its checksum; a crash cannot cause this, so the file was truncated or damaged")
    }

    static func invalidStoredSchema(_ url: URL, _ error: PersistenceError) -> PersistenceError {
        PersistenceError(
            code: .corruptStore,
            message: "The schema stored in \(url.path) is not a valid model: \(error.message)",
            fileURL: url, underlying: error)
    }

    static func unknownEntity(_ name: String, inStore url: URL, known: [String]) -> PersistenceError {
        let names = known.isEmpty ? "it has no entities" : "its entities are \(known.joined(separator: ", "))"
        return PersistenceError(
            code: .unknownEntity,
            message: "The store file \(url.path) has no entity '\(name)'; \(names).",
            entityName: name, fileURL: url)
    }

    static func destinationExists(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "The file \(url.path) already exists. Choose another destination, or allow replacing it.",
            fileURL: url)
    }

    static func destinationIsSource(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "The destination \(url.path) is the source file itself. Convert into another file; "
                + "to rewrite a store in place, compact it.",
            fileURL: url)
    }
}
