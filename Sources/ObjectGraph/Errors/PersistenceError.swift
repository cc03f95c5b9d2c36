import Foundation

/// The one error type ObjectGraph throws.
///
/// Every error carries a ``code`` to match on, a ``message`` that says what happened and what to
/// do, and the context that applies: the entity, object, key, file and byte offset involved.
/// A save that fails validation lists every failure of that save in ``detailedErrors``.
///
/// For example:
/// ```swift
/// do {
///     try context.save()
/// } catch let error as PersistenceError where error.code == .validation {
///     for failure in error.detailedErrors { print(failure.key ?? "", failure.message) }
/// }
/// ```
///
/// Core Data: `NSError` in `NSCocoaErrorDomain` with `NSValidationKeyErrorKey` and friends.
public struct PersistenceError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// What happened and how to fix it. Names entities, keys and files, never stored values.
    public var message: String
    /// The entity involved, if any.
    public var entityName: String?
    /// The object involved, if any.
    public var objectID: ObjectID?
    /// The attribute or relationship involved, if any.
    public var key: String?
    /// The store file involved, if any.
    public var fileURL: URL?
    /// The byte offset in ``fileURL`` where the problem was found, if any.
    public var byteOffset: Int?
    /// The character offset (from 0) in a predicate format string where the problem was found,
    /// if any.
    public var position: Int?
    /// The line (from 1) in ``fileURL`` where the problem was found, for a text file such as an
    /// Xcode model's `contents`, if any.
    public var line: Int?
    /// The error that caused this one, if any.
    public var underlying: (any Error)?
    /// Every individual failure, when one operation found several (for example all validation
    /// failures of one save).
    public var detailedErrors: [PersistenceError]

    package init(
        code: Code,
        message: String,
        entityName: String? = nil,
        objectID: ObjectID? = nil,
        key: String? = nil,
        fileURL: URL? = nil,
        byteOffset: Int? = nil,
        position: Int? = nil,
        line: Int? = nil,
        underlying: (any Error)? = nil,
        detailedErrors: [PersistenceError] = []
    ) {
        self.code = code
        self.message = message
        self.entityName = entityName
        self.objectID = objectID
        self.key = key
        self.fileURL = fileURL
        self.byteOffset = byteOffset
        self.position = position
        self.line = line
        self.underlying = underlying
        self.detailedErrors = detailedErrors
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (underlying error: \(underlying))" }
        for detail in detailedErrors where detailedErrors.count > 1 {
            text += "\n  - \(detail.message)"
        }
        return text
    }
}
