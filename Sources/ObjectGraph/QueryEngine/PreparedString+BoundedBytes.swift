extension PreparedString {
    /// The UTF-8 bytes of a folded constant that is not ASCII, when an occurrence of them with
    /// an ASCII byte (or an end) on both sides is certainly a match; `nil` otherwise.
    ///
    /// Between an ASCII character other than CR or LF and a Character that does not join what
    /// comes before it (no combining mark, extender or joiner first) there is a Character
    /// boundary, and likewise after a Character that does not join what follows (no prepended
    /// mark last): so such an occurrence is a run of whole Characters whose code units are the
    /// constant's own, equal to it under any comparison. `"a"` stands for every ASCII
    /// neighbour: the grapheme rules treat the others alike or break at them (controls).
    static func boundedConstantBytes(of folded: String) -> [UInt8]? {
        let bytes = Array(folded.utf8)
        guard !bytes.isEmpty, bytes.contains(where: { $0 >= 0x80 }), !bytes.contains(0x0D), !bytes.contains(0x0A),
            ("a" + folded).count == folded.count + 1, (folded + "a").count == folded.count + 1
        else { return nil }
        return bytes
    }

    /// Whether `subject` relates to the constant as `operation` says, by an occurrence of the
    /// constant's ``boundedConstantBytes(of:)`` with an ASCII byte or an end on both sides: `true` where
    /// one is found, `nil` (the Character comparison decides) where none is.
    static func boundedBytesMatch(_ subject: String, _ constant: [UInt8], _ operation: Operation) -> Bool? {
        let found = subject.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let count = bytes.count
            let length = constant.count
            guard count >= length else { return false }
            func occurs(at start: Int) -> Bool {
                for offset in 0..<length where bytes[start + offset] != constant[offset] { return false }
                return (start == 0 || bytes[start - 1] < 0x80)
                    && (start + length == count || bytes[start + length] < 0x80)
            }
            switch operation {
            case .equal: return count == length && occurs(at: 0)
            case .prefix: return occurs(at: 0)
            case .suffix: return occurs(at: count - length)
            case .substring:
                let first = constant[0]
                var start = 0
                while start <= count - length {
                    if bytes[start] == first, occurs(at: start) { return true }
                    start += 1
                }
                return false
            }
        }
        return found == true ? true : nil
    }
}
