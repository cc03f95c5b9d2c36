import Foundation

extension PersistenceError {
    /// An XML document (a model's `contents`, a `.xccurrentversion` property list) that is not
    /// well-formed.
    static func malformedMarkup(file: URL?, line: Int, problem: String) -> PersistenceError {
        let place = file.map { "\($0.path), line \(line)" } ?? "line \(line)"
        return PersistenceError(
            code: .invalidModel,
            message: "The XML at \(place) is malformed: \(problem). Fix the file (opening and saving the model in "
                + "Xcode rewrites it), or restore it from version control.",
            fileURL: file, line: line)
    }

    /// A model file or folder that cannot be read (missing, unreadable, or of an unknown kind).
    static func unreadableModel(_ url: URL, problem: String) -> PersistenceError {
        PersistenceError(
            code: .invalidModel,
            message: "The model at \(url.path) cannot be read: \(problem).",
            fileURL: url)
    }
}
