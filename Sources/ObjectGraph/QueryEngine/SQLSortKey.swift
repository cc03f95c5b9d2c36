import Foundation

/// How translated SQL sorts strings exactly as the engine does (``SortOrdering``): by the
/// collation `og_order`, which compares with Swift's own string order, after `og_casefold(text)`
/// for a `.caseInsensitive` sort (the engine's folding). `NULL` stays `NULL`.
enum SQLSortKey {
    static let foldFunctionName = "og_casefold"
    static let collationName = "og_order"

    /// `arguments[0]` case-folded, if it is text.
    static func folded(_ arguments: [SQLValue]) -> SQLValue {
        guard case .text(let text) = arguments[0] else { return arguments[0] }
        return .text(PredicateFolding.fold(text, .caseInsensitive))
    }

    /// -1, 0 or 1 as Swift orders the two strings.
    static func order(_ lhs: String, _ rhs: String) -> Int {
        lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)
    }
}
