extension ColumnSort {
    /// A string key with its first sixteen UTF-8 bytes as two big-endian words when it is
    /// ASCII, so that most comparisons of ASCII keys are two integer comparisons.
    private struct StringEntry {
        var high: UInt64
        var low: UInt64
        /// The UTF-8 length, or -1 if the string is not ASCII (or not contiguous UTF-8).
        var asciiCount: Int
        var value: String
        var position: Int32

        init(_ value: String, position: Int) {
            self.value = value
            self.position = Int32(position)
            (high, low, asciiCount) = (0, 0, -1)
            let words = value.utf8.withContiguousStorageIfAvailable { bytes -> (UInt64, UInt64)? in
                var words: (UInt64, UInt64) = (0, 0)
                for (index, byte) in bytes.enumerated() {
                    if byte >= 0x80 { return nil }
                    if index < 8 {
                        words.0 |= UInt64(byte) << UInt64(56 - index * 8)
                    } else if index < 16 {
                        words.1 |= UInt64(byte) << UInt64(56 - (index - 8) * 8)
                    }
                }
                return words
            }
            if let words = words ?? nil {
                (high, low, asciiCount) = (words.0, words.1, value.utf8.count)
            }
        }

        /// -1, 0 or 1 as Swift's `<` and `==` order the two strings. For two ASCII strings that
        /// is the order of their bytes (a shorter string first where one begins the other):
        /// the words decide unless both begin with the same sixteen bytes.
        @inline(__always)
        func compare(_ other: StringEntry) -> Int {
            if asciiCount >= 0, other.asciiCount >= 0 {
                if high != other.high { return high < other.high ? -1 : 1 }
                if low != other.low { return low < other.low ? -1 : 1 }
                // Zero bytes pad a word: equal words may still differ in length.
                if asciiCount <= 16, other.asciiCount <= 16 {
                    return asciiCount == other.asciiCount ? 0 : (asciiCount < other.asciiCount ? -1 : 1)
                }
            }
            return value < other.value ? -1 : (value == other.value ? 0 : 1)
        }
    }

    /// ``order(_:ascending:_:)`` for string keys (which have no NaN): the same order.
    static func stringOrder(_ count: Int, ascending: Bool, _ key: (Int) -> Key<String>) -> [Int]? {
        guard count < Int(Int32.max) else { return nil }
        var nulls: [Int] = []
        var entries: [StringEntry] = []
        entries.reserveCapacity(count)
        for position in 0..<count {
            switch key(position) {
            case .null: nulls.append(position)
            case .value(let value): entries.append(StringEntry(value, position: position))
            case .nan, .other: return nil
            }
        }
        if ascending {
            entries.sort { lhs, rhs in
                let order = lhs.compare(rhs)
                return order < 0 || (order == 0 && lhs.position < rhs.position)
            }
        } else {
            entries.sort { lhs, rhs in
                let order = lhs.compare(rhs)
                return order > 0 || (order == 0 && lhs.position < rhs.position)
            }
        }
        var order: [Int] = []
        order.reserveCapacity(count)
        if ascending { order += nulls }
        for entry in entries { order.append(Int(entry.position)) }
        if !ascending { order += nulls }
        return order
    }
}
