/// Sorting positions by typed keys (``ColumnSortKey``), one key after another.
///
/// Each position becomes a 16-byte entry: a 64-bit word of the key (a number's order-preserving
/// bits, or eight bytes of a string) and, below it, a small class (nil, NaN, value; for a
/// string, how many of its bytes the word holds) and the position. A range of entries is sorted
/// by word and class (a radix sort on large ranges, so no comparison of keys at all), and each
/// run of equal entries is then sorted again: by the string's next eight bytes while the run's
/// strings go on, by the next key otherwise. Ties of every key keep position order.
enum ColumnSort {
    struct Entry {
        var word: UInt64
        /// The class (bits 32–39) and the position (bits 0–31).
        var rest: UInt64

        @inline(__always) var position: Int { Int(truncatingIfNeeded: rest & 0xFFFF_FFFF) }
        @inline(__always) var minor: UInt64 { rest >> 32 }

        @inline(__always)
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.word != rhs.word ? lhs.word < rhs.word : lhs.rest < rhs.rest
        }
    }

    /// Ranges at least this long are sorted by radix.
    static let radixThreshold = 256

    /// Positions `0..<count` sorted by `keys` (each ascending or descending), ties in position
    /// order; `nil` if `count` does not fit the entries.
    static func order(_ count: Int, keys: [ColumnSortKey]) -> [Int]? {
        guard count <= Int(UInt32.max) else { return nil }
        var entries = (0..<count).map { Entry(word: 0, rest: UInt64($0)) }
        var scratch = [Entry](repeating: Entry(word: 0, rest: 0), count: count)
        // Unsafe buffers: the sort indexes both arrays heavily; ranges stay inside `0..<count`.
        entries.withUnsafeMutableBufferPointer { entries in
            scratch.withUnsafeMutableBufferPointer { scratch in
                Sorter(entries: entries, scratch: scratch, keys: keys).sort(0..<count, keyIndex: 0, depth: 0)
            }
        }
        return entries.map(\.position)
    }

    private struct Sorter {
        let entries: UnsafeMutableBufferPointer<Entry>
        let scratch: UnsafeMutableBufferPointer<Entry>
        let keys: [ColumnSortKey]

        /// A range of entries still to sort, by key `keyIndex` from byte `depth` of its strings on.
        private typealias Pending = (range: Range<Int>, keyIndex: Int, depth: Int)

        /// Sorts `range` (whose entries are in position order) by key `keyIndex` from byte
        /// `depth` of its strings on, then by the keys after it. Runs of ties wait on a list
        /// rather than in nested calls, so that strings sharing a long prefix (a step per eight
        /// bytes) cannot exhaust the stack.
        func sort(_ range: Range<Int>, keyIndex: Int, depth: Int) {
            var pending: [Pending] = [(range, keyIndex, depth)]
            while let next = pending.popLast() {
                sortStep(next.range, keyIndex: next.keyIndex, depth: next.depth, pending: &pending)
            }
        }

        /// Sorts `range` by key `keyIndex` from byte `depth` on, and adds each run of ties to
        /// `pending`, to be sorted by the next eight bytes or the next key.
        private func sortStep(_ range: Range<Int>, keyIndex: Int, depth: Int, pending: inout [Pending]) {
            guard range.count > 1, keyIndex < keys.count else { return }
            let key = keys[keyIndex]
            if case .strings(let column) = key.values, !column.bytesOrder {
                sortComparing(range, column: column, ascending: key.ascending, keyIndex: keyIndex, pending: &pending)
                return
            }
            var isString = false
            switch key.values {
            case .words(let words, let classes): fill(range, words: words, classes: classes, ascending: key.ascending)
            case .strings(let column):
                isString = true
                fill(range, column: column, depth: depth, ascending: key.ascending)
            }
            sortEntries(range)
            let isLast = keyIndex + 1 == keys.count
            guard isString || !isLast else { return }
            let continues = UInt64(key.ascending ? ColumnSortKey.continues : 0xFF - ColumnSortKey.continues)
            var start = range.lowerBound
            while start < range.upperBound {
                let first = entries[start]
                var end = start + 1
                while end < range.upperBound, entries[end].word == first.word, entries[end].minor == first.minor {
                    end += 1
                }
                if end - start > 1 {
                    if isString, first.minor == continues {
                        pending.append((start..<end, keyIndex, depth + 8))
                    } else if !isLast {
                        pending.append((start..<end, keyIndex + 1, 0))
                    }
                }
                start = end
            }
        }

        private func fill(_ range: Range<Int>, words: [UInt64], classes: [ColumnSortKey.Class], ascending: Bool) {
            for index in range {
                let position = entries[index].position
                let minor = UInt64(classes[position].rawValue)
                let word = words[position]
                entries[index] =
                    ascending
                    ? Entry(word: word, rest: minor << 32 | UInt64(position))
                    : Entry(word: ~word, rest: (0xFF - minor) << 32 | UInt64(position))
            }
        }

        private func fill(_ range: Range<Int>, column: ColumnSortKey.StringColumn, depth: Int, ascending: Bool) {
            let (starts, isNil) = (column.starts, column.isNil)
            column.bytes.withUnsafeBufferPointer { bytes in
                for index in range {
                    let position = entries[index].position
                    var (word, minor): (UInt64, UInt8) = (0, 0)
                    if !isNil[position] {
                        let own = UnsafeBufferPointer(rebasing: bytes[starts[position]..<starts[position + 1]])
                        (word, minor) = ColumnSortKey.word(own, from: depth)
                    }
                    entries[index] =
                        ascending
                        ? Entry(word: word, rest: UInt64(minor) << 32 | UInt64(position))
                        : Entry(word: ~word, rest: UInt64(0xFF - minor) << 32 | UInt64(position))
                }
            }
        }

        /// Sorts `range` by word, then class and position.
        private func sortEntries(_ range: Range<Int>) {
            if range.count < ColumnSort.radixThreshold {
                var slice = UnsafeMutableBufferPointer(rebasing: entries[range])
                slice.sort(by: <)
                return
            }
            radixSort(range)
        }

        /// A least-significant-digit radix sort of `range` on the class byte, then the word's
        /// eight bytes from the lowest, skipping digits every entry shares; stable, so
        /// positions stay in order among equal words and classes.
        private func radixSort(_ range: Range<Int>) {
            let digits = 9
            var counts = [Int](repeating: 0, count: digits * 256)
            counts.withUnsafeMutableBufferPointer { counts in
                for index in range {
                    let entry = entries[index]
                    counts[Int(truncatingIfNeeded: entry.minor & 0xFF)] += 1
                    var word = entry.word
                    for digit in 1..<digits {
                        counts[digit << 8 | Int(truncatingIfNeeded: word & 0xFF)] += 1
                        word >>= 8
                    }
                }
                var source = UnsafeMutableBufferPointer(rebasing: entries[range])
                var target = UnsafeMutableBufferPointer(rebasing: scratch[range])
                for digit in 0..<digits {
                    let base = digit << 8
                    // A digit every entry shares moves nothing.
                    var distinct = 0
                    var total = 0
                    for bucket in 0..<256 {
                        let count = counts[base + bucket]
                        if count != 0 { distinct += 1 }
                        counts[base + bucket] = total
                        total += count
                    }
                    guard distinct > 1 else { continue }
                    let shift = digit == 0 ? 32 : UInt64(8 * (digit - 1))
                    for entry in source {
                        let value = digit == 0 ? entry.rest >> shift : entry.word >> shift
                        let bucket = base + Int(truncatingIfNeeded: value & 0xFF)
                        target[counts[bucket]] = entry
                        counts[bucket] += 1
                    }
                    swap(&source, &target)
                }
                if source.baseAddress != entries.baseAddress.map({ $0 + range.lowerBound }) {
                    _ = UnsafeMutableBufferPointer(rebasing: entries[range]).update(fromContentsOf: source)
                }
            }
        }

        /// Sorts `range` comparing strings with Swift's `<` (keys not all known to be NFC),
        /// then adds each run of equal strings to `pending`, to be sorted by the next key.
        private func sortComparing(
            _ range: Range<Int>, column: ColumnSortKey.StringColumn, ascending: Bool, keyIndex: Int,
            pending: inout [Pending]
        ) {
            var slice = UnsafeMutableBufferPointer(rebasing: entries[range])
            slice.sort { lhs, rhs in
                let (a, b) = (column.text(at: lhs.position), column.text(at: rhs.position))
                switch (a, b) {
                case (nil, nil): return lhs.position < rhs.position
                case (nil, _): return ascending
                case (_, nil): return !ascending
                case (let a?, let b?):
                    if a == b { return lhs.position < rhs.position }
                    return ascending ? a < b : b < a
                }
            }
            guard keyIndex + 1 < keys.count else { return }
            var start = range.lowerBound
            while start < range.upperBound {
                let first = column.text(at: entries[start].position)
                var end = start + 1
                while end < range.upperBound, column.text(at: entries[end].position) == first { end += 1 }
                if end - start > 1 { pending.append((start..<end, keyIndex + 1, 0)) }
                start = end
            }
        }
    }
}
