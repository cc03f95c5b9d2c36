extension PersistenceError {
    /// The most characters of caller- or file-supplied text an error message quotes.
    package static let maximumQuotedLength = 120

    /// `text` as an error message quotes it: at most `limit` characters, cut with "…" and the
    /// length in bytes, so that hostile input cannot make messages (and logs) huge.
    package static func excerpt(_ text: some StringProtocol, limit: Int = maximumQuotedLength) -> String {
        // Counting characters of a huge text would cost a pass over it: look at UTF-8 first.
        guard text.utf8.count > limit else { return String(text) }
        let prefix = text.prefix(limit)
        guard prefix.endIndex < text.endIndex else { return String(text) }
        return String(prefix) + "… (\(text.utf8.count) bytes)"
    }

    /// A predicate format string longer than the parser accepts.
    static func predicateFormatTooLong(length: Int, limit: Int) -> PersistenceError {
        PersistenceError(
            code: .invalidPredicate,
            message: "The predicate's format string is \(length) bytes long, more than the limit of \(limit). "
                + "Pass long lists of values as an argument (%@) instead of writing them into the format.")
    }

    /// A predicate argument nested deeper than the binder accepts.
    static func predicateArgumentTooDeep(limit: Int) -> String {
        "it nests arrays or sets more than \(limit) deep"
    }

    /// A predicate that reaches more related objects than one fetch may.
    static func predicateTooExpensive(entity: String) -> PersistenceError {
        PersistenceError(
            code: .invalidPredicate,
            message: "The predicate of a fetch of '\(entity)' reaches too many related objects (nested SUBQUERYs or "
                + "key paths over large to-many relationships). Simplify it, or fetch in steps.",
            entityName: entity)
    }
}
