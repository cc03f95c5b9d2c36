import Foundation

/// Sort keys for printable ASCII strings (U+0020 to U+007E) under the localized comparisons, so
/// that a localized sort compares bytes instead of calling Foundation for every pair.
///
/// A key's bytes order as Foundation's `localizedCompare`, `localizedCaseInsensitiveCompare` and
/// `localizedStandardCompare` order the strings under the standard collation (the root order,
/// which English and most locales use for ASCII): characters by their primary weight (space and
/// punctuation, symbols, digits, then letters, each letter's cases together), then, where those
/// tie, by case (lower before upper; not for the case-insensitive comparison). The standard
/// comparison reads each run of digits as one number (leading zeros ignored; up to 19 digits,
/// longer numbers have no key) and, where everything else ties, orders by the first element
/// that differs: its case, or the run with more leading zeros last (Foundation's forced
/// ordering).
///
/// The order is the locale's, so it is used only where ``agreesWithFoundation(_:sortingRows:)``
/// found that Foundation orders a set of probes exactly as the keys do for the current locale (a locale
/// that tailors ASCII, such as Czech `ch` or Danish `aa`, fails the probe, and its sorts keep
/// comparing with Foundation).
enum ASCIICollationKey {
    /// The primary weights of printable ASCII, in the standard collation's order; index
    /// `byte - 0x20`. Weights start at 2: 1 separates the primary part from the tie-breaking one.
    private static let primaryWeights: [UInt8] = {
        let order = Array(" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789".utf8)
        var weights = [UInt8](repeating: 0, count: 95)
        var weight: UInt8 = 2
        for byte in order {
            weights[Int(byte) - 0x20] = weight
            weight += 1
        }
        for letter in UInt8(ascii: "a")...UInt8(ascii: "z") {
            weights[Int(letter) - 0x20] = weight
            weights[Int(letter) - 0x20 - 0x20] = weight
            weight += 1
        }
        return weights
    }()

    /// The most significant digits of a run of digits that a key encodes. Foundation compares
    /// longer numbers by their value modulo 2^64 (measured on Linux: 20-digit numbers of one
    /// length ordered at random), which a key does not model; a string with one has no key.
    static let longestNumber = 19

    /// The most leading zeros of a run of digits that a key encodes (one byte counts them).
    static let mostLeadingZeros = 250

    /// Appends the key of `text` under `comparison` to `key`; `false` (with `key` as it was) if
    /// `text` is not printable ASCII, has a number longer than ``longestNumber`` or more leading
    /// zeros than ``mostLeadingZeros``, or `comparison` is not localized.
    static func append(_ text: String, comparison: SortDescriptor.Comparison, to key: inout [UInt8]) -> Bool {
        var writer = Writer()
        return writer.append(text, comparison: comparison, to: &key)
    }

    /// Appends keys through one scratch buffer, for the keys of many strings.
    struct Writer {
        private var scratch: [UInt8] = []

        /// ``ASCIICollationKey/append(_:comparison:to:)``.
        mutating func append(_ text: String, comparison: SortDescriptor.Comparison, to key: inout [UInt8]) -> Bool {
            if let appended = text.utf8.withContiguousStorageIfAvailable({
                append($0, comparison: comparison, to: &key)
            }) {
                return appended
            }
            var contiguous = text
            contiguous.makeContiguousUTF8()
            return contiguous.utf8.withContiguousStorageIfAvailable { append($0, comparison: comparison, to: &key) }
                ?? false
        }

        private mutating func append(
            _ text: UnsafeBufferPointer<UInt8>, comparison: SortDescriptor.Comparison, to key: inout [UInt8]
        ) -> Bool {
            // At most three bytes per character (a run of one digit), a separator and a tie byte
            // per element.
            let longest = 4 * text.count + 1
            if scratch.count < longest { scratch = [UInt8](repeating: 0, count: Swift.max(longest, 64)) }
            // Unchecked writes (a key of many strings is made per sort): the scratch holds the
            // longest key of `text`, which the writers never pass.
            let length = scratch.withUnsafeMutableBufferPointer { scratch -> Int? in
                switch comparison {
                case .localized: ASCIICollationKey.writeCharacters(text, caseLevel: true, into: scratch)
                case .localizedCaseInsensitive: ASCIICollationKey.writeCharacters(text, caseLevel: false, into: scratch)
                case .localizedStandard: ASCIICollationKey.writeNumeric(text, into: scratch)
                case .caseSensitive, .caseInsensitive: nil
                }
            }
            guard let length else { return false }
            scratch.withUnsafeBufferPointer { key.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<length])) }
            return true
        }
    }

    /// One element per character: primary weights, then (with `caseLevel`) a separator and one
    /// case byte per character. The key's length, or `nil` for a byte that is not printable.
    private static func writeCharacters(
        _ text: UnsafeBufferPointer<UInt8>, caseLevel: Bool, into key: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        let count = text.count
        return primaryWeights.withUnsafeBufferPointer { weights in
            for index in 0..<count {
                let byte = text[index]
                guard byte &- 0x20 < 95 else { return nil }
                key[index] = weights[Int(byte &- 0x20)]
                if caseLevel { key[count + 1 + index] = byte &- 0x41 < 26 ? 1 : 0 }
            }
            guard caseLevel else { return count }
            key[count] = 1
            return 2 * count + 1
        }
    }

    /// Elements of characters and digit runs: primary weights (a run as the number weight, its
    /// count of significant digits and those digits), then a separator and one tie-breaking
    /// byte per element (a character's case, a run's count of leading zeros). The key's length,
    /// or `nil` for a byte that is not printable or a run longer than the key encodes.
    private static func writeNumeric(_ text: UnsafeBufferPointer<UInt8>, into key: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        let count = text.count
        return primaryWeights.withUnsafeBufferPointer { weights -> Int? in
            var (index, end) = (0, 0)
            while index < count {
                let byte = text[index]
                guard byte &- 0x20 < 95 else { return nil }
                guard byte &- 0x30 < 10 else {
                    key[end] = weights[Int(byte &- 0x20)]
                    (index, end) = (index + 1, end + 1)
                    continue
                }
                let zerosStart = index
                while index < count, text[index] == UInt8(ascii: "0") { index += 1 }
                let digitsStart = index
                while index < count, text[index] &- 0x30 < 10 { index += 1 }
                let (zeros, digits) = (digitsStart - zerosStart, index - digitsStart)
                guard zeros <= mostLeadingZeros, digits <= longestNumber else { return nil }
                // A run weighs as a digit (the digits sort in one block), then by its length.
                key[end] = weights[Int(UInt8(ascii: "0") - 0x20)]
                key[end + 1] = UInt8(digits)
                for offset in 0..<digits { key[end + 2 + offset] = text[digitsStart + offset] }
                end += 2 + digits
            }
            key[end] = 1
            end += 1
            index = 0
            while index < count {
                let byte = text[index]
                if byte &- 0x30 < 10 {
                    let zerosStart = index
                    while index < count, text[index] == UInt8(ascii: "0") { index += 1 }
                    key[end] = UInt8(index - zerosStart)
                    while index < count, text[index] &- 0x30 < 10 { index += 1 }
                } else {
                    key[end] = byte &- 0x41 < 26 ? 1 : 0
                    index += 1
                }
                end += 1
            }
            return end
        }
    }

    // MARK: - Agreement with Foundation

    /// The rows from which a localized sort pays for probing the locale: about 9,000 Foundation
    /// comparisons, which a comparison sort of 1,000 rows makes.
    static let rowsWorthProbing = 1_000

    /// Whether Foundation orders the probes exactly as their keys do under `comparison`, for the
    /// current locale; found once per locale and comparison (about 9,000 comparisons, 20–40 ms),
    /// by a sort of at least ``rowsWorthProbing`` rows (`false` until one runs).
    static func agreesWithFoundation(_ comparison: SortDescriptor.Comparison, sortingRows rows: Int = .max) -> Bool {
        if let known = knownAgreement(comparison) { return known }
        guard rows >= rowsWorthProbing else { return false }
        let agrees = probesAgree(comparison) { SortOrdering.compare(.string($0), .string($1), comparison) }
        agreement.withLock { $0[agreementName(comparison)] = agrees }
        return agrees
    }

    /// What the probe found under `comparison` for the current locale, or `nil` before it ran.
    static func knownAgreement(_ comparison: SortDescriptor.Comparison) -> Bool? {
        agreement.withLock { $0[agreementName(comparison)] }
    }

    private static func agreementName(_ comparison: SortDescriptor.Comparison) -> String {
        "\(comparison.rawValue) \(Locale.current.identifier)"
    }

    /// Process-wide on purpose, as the locale is: what a probe found, by comparison and locale
    /// identifier, so that each is probed once (behind a lock, as any thread may sort).
    private static let agreement = Locked<[String: Bool]>([:])

    /// Every printable character alone and in pairs, and numbers with leading zeros and cases:
    /// sorted by key, each must compare with the next as Foundation compares them (ascending
    /// where the keys differ, the same where they tie), which by transitivity is the whole order.
    /// `compare` is the comparison to agree with, -1, 0 or 1 (``SortOrdering``'s, which calls
    /// Foundation in the current locale).
    static func probesAgree(_ comparison: SortDescriptor.Comparison, compare: (String, String) -> Int) -> Bool {
        let printable = (UInt8(0x20)...UInt8(0x7E)).map { String(UnicodeScalar($0)) }
        var probes = printable
        for first in printable { for second in printable { probes.append(first + second) } }
        probes += ["001", "010", "100", "0001", "a01", "A01", "a001", "01a", "01A", "a01b1", "a1b01", "x9y10", "x10y9"]
        // Numbers up to the longest a key encodes, and the most leading zeros.
        let nines = (5...longestNumber).map { String(repeating: "9", count: $0) }
        probes += nines + nines.dropLast().map { "1" + String(repeating: "0", count: $0.count) }
        probes += ["9223372036854775807", "9223372036854775808", String(repeating: "8", count: longestNumber)]
        probes += [
            "0" + String(repeating: "9", count: longestNumber), String(repeating: "0", count: mostLeadingZeros) + "1",
        ]
        var keyed: [(key: [UInt8], text: String)] = []
        keyed.reserveCapacity(probes.count)
        var writer = Writer()
        for probe in probes {
            var key: [UInt8] = []
            guard writer.append(probe, comparison: comparison, to: &key) else { return false }
            keyed.append((key, probe))
        }
        keyed.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for index in keyed.indices.dropLast() {
            let (left, right) = (keyed[index], keyed[index + 1])
            let expected = left.key == right.key ? 0 : -1
            if compare(left.text, right.text) != expected { return false }
        }
        return true
    }
}
