import Foundation

extension StringSignature {
    /// No characters: what the empty string requires (it excludes no row).
    static let empty = StringSignature(scalars: 0, pairs: 0)

    @inline(__always)
    private static func scalarBit(_ value: UInt32) -> UInt64 { 1 << UInt64((value &* 0x9E37_79B1) >> 26) }

    @inline(__always)
    private static func pairBit(_ first: UInt32, _ second: UInt32) -> UInt64 {
        1 << UInt64((((first &* 0x85EB_CA6B) ^ second) &* 0x9E37_79B1) >> 26)
    }

    /// The signature of `text` folded as `options` ask (``PredicateFolding/fold(_:_:)``), as a
    /// column stores it for a comparison with those options.
    ///
    /// Why a row whose signature lacks a constant's bit cannot match: every comparison of the
    /// string operators (`==`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, and the literal characters
    /// of a `LIKE` pattern) finds, in the folded value, characters that are canonically
    /// equivalent to the folded constant's (or equal to them). Canonically equivalent strings
    /// have the same canonical decomposition, and a decomposition is made scalar by scalar, its
    /// combining marks reordered only among themselves: so every scalar of the constant's
    /// decomposition occurs in the value's, and two neighbouring starters of the constant's
    /// stay neighbours in the value's.
    static func of(_ text: String, folding options: PredicateExpression.Options) -> StringSignature {
        let lowercases = options.contains(.caseInsensitive)
        if let ascii = asciiSignature(text, lowercasing: lowercases) { return ascii }
        return decomposed(options.isEmpty ? text : PredicateFolding.fold(text, options))
    }

    /// The signature of `text` as it is (a constant already folded).
    static func of(folded text: String) -> StringSignature {
        asciiSignature(text, lowercasing: false) ?? decomposed(text)
    }

    /// The signer of a column folded as `options` ask.
    ///
    /// A column that folds keeps the folded form of each value that is not ASCII (an ASCII
    /// value's conjunct tests it by its bytes, without folding).
    static func signer(folding options: PredicateExpression.Options) -> StringSignatureColumn.Signer {
        let options = options.intersection([.caseInsensitive, .diacriticInsensitive])
        return { value in
            switch value {
            case .string(let text): entry(text, folding: options)
            default: .notAString
            }
        }
    }

    private static func entry(_ text: String, folding options: PredicateExpression.Options)
        -> StringSignatureColumn.Entry
    {
        if let ascii = asciiSignature(text, lowercasing: options.contains(.caseInsensitive)) {
            return StringSignatureColumn.Entry(signature: ascii, folded: nil)
        }
        guard !options.isEmpty else { return StringSignatureColumn.Entry(signature: decomposed(text), folded: nil) }
        let folded = PredicateFolding.fold(text, options)
        return StringSignatureColumn.Entry(signature: decomposed(folded), folded: folded)
    }

    /// How a column's folding is numbered: the options that change the folded string.
    static func folding(_ options: PredicateExpression.Options) -> Int {
        options.intersection([.caseInsensitive, .diacriticInsensitive]).rawValue
    }

    /// The signature of an ASCII `text` (ASCII letters lower-cased if `lowercasing`, as folding
    /// with `[c]` does), or `nil` if it is not ASCII. ASCII characters are their own
    /// decomposition and all starters.
    private static func asciiSignature(_ text: String, lowercasing: Bool) -> StringSignature? {
        let signed = text.utf8.withContiguousStorageIfAvailable { bytes -> StringSignature? in
            var signature = StringSignature.empty
            var previous: UInt32 = 0
            for (position, byte) in bytes.enumerated() {
                if byte >= 0x80 { return nil }
                var value = UInt32(byte)
                if lowercasing, value >= 0x41, value <= 0x5A { value |= 0x20 }
                signature.scalars |= scalarBit(value)
                if position > 0 { signature.pairs |= pairBit(previous, value) }
                previous = value
            }
            return signature
        }
        return signed ?? nil
    }

    private static func decomposed(_ text: String) -> StringSignature {
        var signature = StringSignature.empty
        var previousStarter: UInt32? = nil
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            signature.scalars |= scalarBit(scalar.value)
            let isStarter = scalar.properties.canonicalCombiningClass == .notReordered
            if isStarter, let previousStarter { signature.pairs |= pairBit(previousStarter, scalar.value) }
            previousStarter = isStarter ? scalar.value : nil
        }
        return signature
    }
}
