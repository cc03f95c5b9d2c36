extension PreparedString {
    /// Decides `subject` (any string, folded or not) against an ASCII constant by its UTF-8
    /// bytes when the bytes settle it, or returns `nil` for the Character comparison.
    ///
    /// - A match is certain where the constant's bytes occur with an ASCII byte (or an end) on
    ///   both sides: between two ASCII characters other than CR LF there is always a Character
    ///   boundary (the grapheme rules that join are about non-ASCII scalars), so the bytes are
    ///   whole Characters equal to the constant's.
    /// - A miss is certain where the bytes do not occur and `subject` holds none of the
    ///   non-ASCII scalars canonically equivalent to an ASCII one (U+037E, U+1FEF, U+212A; the
    ///   test below rules out their whole blocks): canonically equivalent strings have the same
    ///   decomposition, and an ASCII constant is its own.
    /// - Otherwise (the bytes followed by a combining mark, a constant with CR or LF) `nil`.
    static func asciiConstantMatch(
        _ subject: String, _ constant: [UInt8], _ operation: Operation
    ) -> Bool? {
        if constant.contains(0x0D) || constant.contains(0x0A) { return nil }
        let decided = subject.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            let count = bytes.count
            let length = constant.count
            func matches(at start: Int) -> Bool {
                for offset in 0..<length where bytes[start + offset] != constant[offset] { return false }
                return true
            }
            func bounded(_ start: Int) -> Bool {
                (start == 0 || bytes[start - 1] < 0x80) && (start + length == count || bytes[start + length] < 0x80)
            }
            var found = false
            switch operation {
            case .equal:
                if count == length, matches(at: 0) { return true }
            case .prefix:
                if count >= length, matches(at: 0) {
                    if bounded(0) { return true }
                    found = true
                }
            case .suffix:
                if count >= length, matches(at: count - length) {
                    if bounded(count - length) { return true }
                    found = true
                }
            case .substring:
                if length == 0 { return true }
                var start = 0
                while let candidate = firstCandidate(
                    of: constant[0], caseBits: 0, in: bytes, from: start, through: count - length)
                {
                    if matches(at: candidate) {
                        if bounded(candidate) { return true }
                        found = true
                    }
                    start = candidate + 1
                }
            }
            return found || mayHoldASCIIEquivalent(bytes) ? nil : false
        }
        return decided ?? nil
    }

    /// Whether `bytes` may hold a non-ASCII scalar whose canonical decomposition is ASCII: any
    /// scalar of U+0340–U+037F (lead byte 0xCD), U+1FC0–U+1FFF (0xE1 0xBF) or U+2100–U+213F
    /// (0xE2 0x84).
    private static func mayHoldASCIIEquivalent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0xCD { return true }
            if index + 1 < bytes.count {
                if byte == 0xE1, bytes[index + 1] == 0xBF { return true }
                if byte == 0xE2, bytes[index + 1] == 0x84 { return true }
            }
            index += 1
        }
        return false
    }
}
