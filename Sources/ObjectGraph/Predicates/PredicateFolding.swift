import Foundation

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]`, with an allocation-free path for
/// ASCII strings.
enum PredicateFolding {
    /// `text` folded as `options` ask (Unicode case folding and diacritic removal).
    static func fold(_ text: String, _ options: PredicateExpression.Options) -> String {
        guard !options.isEmpty else { return text }
        // For ASCII, case folding is lower-casing and there are no diacritics to remove.
        if ASCIIBytes.isASCII(text) { return options.contains(.caseInsensitive) ? text.lowercased() : text }
        var foundation: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
        return text.folding(options: foundation, locale: nil)
    }
}
