import Foundation

/// A string's sort key, callable from SQL as `og_sortkey(text, caseInsensitive)`: a blob whose
/// byte order is the order in which the engine sorts strings (``SortOrdering``).
///
/// Swift orders strings by their canonical (NFC) Unicode scalars, so the key is the string's NFC
/// form in UTF-8 (whose byte order is scalar order), case-folded first as the engine folds for a
/// `.caseInsensitive` sort. `NULL` stays `NULL`.
enum SQLSortKey {
    static let functionName = "og_sortkey"

    /// The key of `arguments[0]` (text), folded when `arguments[1]` is 1.
    static func key(_ arguments: [SQLValue]) -> SQLValue {
        guard case .text(var text) = arguments[0] else { return arguments[0] }
        if arguments[1] == .integer(1) { text = PredicateFolding.fold(text, .caseInsensitive) }
        return .blob(Array(text.precomposedStringWithCanonicalMapping.utf8))
    }
}
