import Foundation

/// A string constant prepared once per fetch: folded as its comparison asks.
struct PreparedString {
    /// The folded constant.
    let folded: String
    /// Its UTF-8 bytes when it is ASCII (folding then lower-cases ASCII letters), else `nil`.
    let ascii: [UInt8]?
    /// Its UTF-8 bytes when it is not ASCII and they match wherever ASCII bounds them (see
    /// ``boundedConstantBytes(of:)``), else `nil`.
    let boundedBytes: [UInt8]?
    let options: PredicateExpression.Options
    /// Whether the folded constant holds a NUL character (see ``matches(folded:_:)``).
    private let containsNUL: Bool

    init(_ text: String, options: PredicateExpression.Options) {
        let folded = PredicateFolding.fold(text, options)
        self.folded = folded
        self.containsNUL = folded.utf8.contains(0)
        self.ascii = ASCIIBytes.isASCII(folded) ? Array(folded.utf8) : nil
        self.boundedBytes = ascii == nil ? Self.boundedConstantBytes(of: folded) : nil
        self.options = options
    }

    /// `value` folded the same way (allocates only when options are set and `value` is not
    /// small enough to be stored inline).
    func fold(_ value: String) -> String { PredicateFolding.fold(value, options) }

    /// String operators that compare against this constant.
    enum Operation {
        case equal, prefix, suffix, substring
    }

    /// Whether `value` relates to the constant as `operation` says, after folding.
    func matches(_ value: String, _ operation: Operation) -> Bool {
        if let ascii,
            let result = Self.asciiMatch(value, ascii, operation, lowercasing: options.contains(.caseInsensitive))
        {
            return result
        }
        return matches(folded: fold(value), operation)
    }

    /// Whether `subject`, a value already folded (see ``fold(_:)``), relates to the constant as
    /// `operation` says: the test ``matches(_:_:)`` makes on a value without an ASCII shortcut.
    func matches(folded subject: String, _ operation: Operation) -> Bool {
        if let ascii, let decided = Self.asciiConstantMatch(subject, ascii, operation) { return decided }
        if let boundedBytes, let decided = Self.boundedBytesMatch(subject, boundedBytes, operation) { return decided }
        switch operation {
        case .equal: return subject == folded
        case .prefix: return subject.hasPrefix(folded)
        case .suffix: return subject.hasSuffix(folded)
        case .substring:
            if folded.isEmpty { return true }
            // Foundation's substring search traps ("String index is out of bounds") on strings
            // holding a NUL character, which a caller's value or argument may: those are searched
            // Character by Character, as `==`, `hasPrefix` and `hasSuffix` compare.
            if containsNUL || subject.utf8.contains(0) { return Self.containsCharacters(subject, folded) }
            return subject.contains(folded)
        }
    }

    /// Whether `part`'s characters appear, in order and together, in `subject`'s.
    private static func containsCharacters(_ subject: String, _ part: String) -> Bool {
        let haystack = Array(subject)
        let needle = Array(part)
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Byte comparison when `value` is ASCII too; `nil` when it is not (or not contiguous).
    /// For ASCII, case folding is lower-casing and diacritic folding changes nothing.
    static func asciiMatch(
        _ value: String, _ constant: [UInt8], _ operation: Operation, lowercasing: Bool
    ) -> Bool? {
        let result = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard ASCIIBytes.areASCII(UnsafeRawBufferPointer(bytes)) else { return nil }
            if bytes.count < constant.count { return false }
            switch operation {
            case .equal:
                return bytes.count == constant.count && equal(bytes, from: 0, constant, lowercasing)
            case .prefix: return equal(bytes, from: 0, constant, lowercasing)
            case .suffix: return equal(bytes, from: bytes.count - constant.count, constant, lowercasing)
            case .substring: return containsASCII(bytes, constant, lowercasing)
            }
        }
        return result ?? nil
    }

    /// Whether `constant` (no longer than `bytes`; the empty one always) occurs in `bytes`: the
    /// places where its first byte occurs are found eight bytes at a time (either case of a
    /// letter under `lowercasing`), and only those are compared.
    private static func containsASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, _ constant: [UInt8], _ lowercasing: Bool
    ) -> Bool {
        guard let first = constant.first else { return true }
        let lastStart = bytes.count - constant.count
        // Under `lowercasing` the constant is folded: a lower-case first letter also matches its
        // upper-case form, which setting bit 0x20 of every byte turns into it.
        let caseBits: UInt64 = lowercasing && first >= 0x61 && first <= 0x7A ? 0x2020_2020_2020_2020 : 0
        var start = 0
        while let candidate = firstCandidate(of: first, caseBits: caseBits, in: bytes, from: start, through: lastStart)
        {
            if equal(bytes, from: candidate, constant, lowercasing) { return true }
            start = candidate + 1
        }
        return false
    }

    /// The first position from `start` through `lastStart` whose byte is `first` (or, with
    /// `caseBits` set, becomes `first` once they are set), looking at eight bytes at a time.
    @inline(__always)
    static func firstCandidate(
        of first: UInt8, caseBits: UInt64, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, through lastStart: Int
    ) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let lastStart = Swift.min(lastStart, bytes.count - 1)
        let firsts = UInt64(first) &* 0x0101_0101_0101_0101
        var start = start
        while start + 8 <= bytes.count, start <= lastStart {
            // Little-endian, so that the lowest set bit below is the first byte in memory.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
            let differences = (word | caseBits) ^ firsts
            // The lowest zero byte of `differences` sets its high bit here (borrows only reach
            // the bytes above it); none: no candidate among these eight bytes.
            let zeros = (differences &- 0x0101_0101_0101_0101) & ~differences & 0x8080_8080_8080_8080
            if zeros != 0 {
                let found = start + (zeros.trailingZeroBitCount >> 3)
                return found <= lastStart ? found : nil
            }
            start += 8
        }
        while start <= lastStart {
            if base[start] | UInt8(truncatingIfNeeded: caseBits) == first { return start }
            start += 1
        }
        return nil
    }

    @inline(__always)
    private static func equal(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ constant: [UInt8], _ lowercasing: Bool
    ) -> Bool {
        for offset in 0..<constant.count {
            var byte = bytes[start + offset]
            if lowercasing, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != constant[offset] { return false }
        }
        return true
    }
}
