import ObjectGraph

/// What can go wrong with the to-do list, as its callers need to tell the cases apart.
///
/// For example:
/// ```swift
/// do { try list.markDone(number: 7) } catch .noSuchItem(let number) { print("no item \(number)") }
/// ```
public enum TodoError: Error, CustomStringConvertible {
    /// No item is shown at this 1-based position.
    case noSuchItem(Int)
    /// A title was empty or only white space.
    case emptyTitle
    /// The store refused the change; the list and the store are as they were before it.
    case saveFailed(any Error)
    /// The store could not be opened or read.
    case loadFailed(any Error)

    /// The store's error behind ``saveFailed(_:)`` or ``loadFailed(_:)``.
    public var underlying: (any Error)? {
        switch self {
        case .noSuchItem, .emptyTitle: nil
        case .saveFailed(let error), .loadFailed(let error): error
        }
    }

    /// The item number of ``noSuchItem(_:)``.
    public var missingNumber: Int? {
        if case .noSuchItem(let number) = self { number } else { nil }
    }

    /// What happened, in one sentence.
    public var description: String {
        switch self {
        case .noSuchItem(let number): "there is no item \(number)"
        case .emptyTitle: "the title is empty"
        case .saveFailed(let error): "the change was not saved (\(Self.oneLine(error))); nothing was changed"
        case .loadFailed(let error): "the list could not be read (\(Self.oneLine(error)))"
        }
    }

    /// A store's error as one line: a `PersistenceError` by its message, which says what to do.
    private static func oneLine(_ error: any Error) -> String {
        let text = (error as? PersistenceError)?.message ?? String(describing: error)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
