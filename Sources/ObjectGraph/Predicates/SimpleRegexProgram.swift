/// A `MATCHES` pattern of the simplest kind, matched without ICU: a sequence of
/// single-character atoms (an ASCII character, an escaped punctuation character, `.`, `\d`, or
/// a set of ASCII characters such as `[a-z0-9_]` or `[^ ]`), each optionally followed by `*`,
/// `+` or `?`. Such a pattern is a regular language, so the whole string is matched by
/// simulating its automaton in one pass over the string, with no backtracking.
///
/// It decides exactly what `NSRegularExpression` decides for the anchored pattern
/// (`\A(?:…)\z`), which matches by Unicode scalar: `.` is every scalar but the line
/// terminators `\n`, `\v`, `\f`, `\r`, U+0085, U+2028 and U+2029; a negated set holds every
/// scalar that is not ASCII. `\d` is `0-9` on ASCII; a pattern with `\d` leaves other values to
/// ICU, whose Unicode version decides which other digits are `Nd`. Case-insensitive matching
/// pairs each ASCII letter with its other case, which decides ASCII values only (ICU also pairs
/// `k` with the Kelvin sign and `s` with `ſ`), so a `[c]` pattern leaves other values to ICU. Any
/// other pattern (groups, alternation, anchors, counted repetition, lazy or possessive
/// quantifiers, classes such as `\w` or `\s`, a non-ASCII character) has no program.
struct SimpleRegexProgram: Sendable {
    /// The bytes one atom accepts, as a 128-bit set.
    private struct ByteSet: Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }

        mutating func insert(_ range: ClosedRange<UInt8>) { for byte in range { insert(byte) } }

        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte & 63)) != 0
        }

        var inverted: ByteSet { ByteSet(low: ~low, high: ~high) }

        /// The set with each ASCII letter's other case added.
        var caseClosed: ByteSet {
            var closed = self
            for letter in UInt8(ascii: "a")...UInt8(ascii: "z") where contains(letter) || contains(letter - 32) {
                closed.insert(letter)
                closed.insert(letter - 32)
            }
            return closed
        }
    }

    private enum Repetition { case once, optional, any }

    /// Which scalars that are not ASCII an atom accepts (`\d` accepts none here: a program with
    /// it leaves such values to ICU).
    private enum BeyondASCII { case none, all, allButLineTerminators }

    /// The atoms in order (`x+` is `x` then `x*`); at most 63, so that a set of states is a word.
    private let atoms: [ByteSet]
    private let beyondASCII: [BeyondASCII]
    private let repetitions: [Repetition]
    /// Whether values that are not ASCII are decided here: not under `[c]`, and not with `\d`
    /// (whose digits outside ASCII are whatever Unicode version ICU carries).
    private let decidesBeyondASCII: Bool
    /// For each state (before atom `i`; `atoms.count`: the end), the states reached from it by
    /// skipping optional atoms, itself included.
    private let closures: [UInt64]

    /// The program of `pattern` (already folded for `[d]`), or `nil` when it is not of the
    /// simple kind; `caseInsensitive` for `[c]`.
    init?(_ pattern: String, caseInsensitive: Bool) {
        var bytes = Array(pattern.utf8)[...]
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var atoms: [ByteSet] = []
        var beyondASCII: [BeyondASCII] = []
        var repetitions: [Repetition] = []
        var hasDecimalDigits = false
        while let first = bytes.popFirst() {
            var atom = ByteSet()
            var beyond = BeyondASCII.none
            switch first {
            case UInt8(ascii: "."):
                atom = ByteSet(low: ~0, high: ~0)
                for terminator in UInt8(0x0A)...UInt8(0x0D) { atom.low &= ~(1 << UInt64(terminator)) }
                beyond = .allButLineTerminators
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.popFirst() else { return nil }
                if escaped == UInt8(ascii: "d") {
                    atom.insert(UInt8(ascii: "0")...UInt8(ascii: "9"))
                    hasDecimalDigits = true
                } else if Self.isPunctuation(escaped) {
                    atom.insert(escaped)
                } else {
                    return nil
                }
            case UInt8(ascii: "["):
                guard let (set, negated) = Self.parseSet(&bytes) else { return nil }
                // ICU closes a set under case before it negates it: `[^a]` excludes `A` too.
                atom = caseInsensitive ? set.caseClosed : set
                if negated {
                    atom = atom.inverted
                    beyond = .all
                }
            case _ where Self.isPlain(first):
                atom.insert(first)
            default:
                return nil
            }
            if caseInsensitive, first != UInt8(ascii: "[") { atom = atom.caseClosed }
            var repetition = Repetition.once
            var repeatsAtLeastOnce = false
            switch bytes.first {
            case UInt8(ascii: "*"): repetition = .any
            case UInt8(ascii: "?"): repetition = .optional
            case UInt8(ascii: "+"): repeatsAtLeastOnce = true
            default: break
            }
            if repetition != .once || repeatsAtLeastOnce {
                bytes.removeFirst()
                // Lazy (`*?`), possessive (`*+`) or stacked quantifiers: not the simple kind.
                if let next = bytes.first,
                    next == UInt8(ascii: "?") || next == UInt8(ascii: "+") || next == UInt8(ascii: "*")
                {
                    return nil
                }
            }
            if repeatsAtLeastOnce {
                atoms.append(atom)
                beyondASCII.append(beyond)
                repetitions.append(.once)
                repetition = .any
            }
            atoms.append(atom)
            beyondASCII.append(beyond)
            repetitions.append(repetition)
            guard atoms.count <= 63 else { return nil }
        }
        self.atoms = atoms
        self.beyondASCII = beyondASCII
        self.repetitions = repetitions
        self.decidesBeyondASCII = !caseInsensitive && !hasDecimalDigits
        var closures = [UInt64](repeating: 0, count: atoms.count + 1)
        for state in stride(from: atoms.count, through: 0, by: -1) {
            closures[state] = 1 << UInt64(state)
            if state < atoms.count, repetitions[state] != .once { closures[state] |= closures[state + 1] }
        }
        self.closures = closures
    }

    /// Whether `value` matches as a whole; `nil` when the program cannot decide it (a value that
    /// is not ASCII under `[c]`).
    func matches(_ value: String) -> Bool? {
        let ascii = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var states = closures[0]
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                states = step(states) { atoms[$0].contains(byte) }
                if states == 0 { return false }
            }
            return accepts(states)
        }
        if let decided = ascii ?? nil { return decided }
        guard decidesBeyondASCII else { return nil }
        var states = closures[0]
        for scalar in value.unicodeScalars {
            let code = scalar.value
            if code < 0x80 {
                states = step(states) { atoms[$0].contains(UInt8(code)) }
            } else {
                states = step(states) { atom in
                    switch beyondASCII[atom] {
                    case .none: false
                    case .all: true
                    case .allButLineTerminators: code != 0x85 && code != 0x2028 && code != 0x2029
                    }
                }
            }
            if states == 0 { return false }
        }
        return accepts(states)
    }

    /// The states after one scalar, from `states`, where `accepts(atom)` says which atoms take it.
    @inline(__always)
    private func step(_ states: UInt64, _ accepts: (Int) -> Bool) -> UInt64 {
        var next: UInt64 = 0
        var remaining = states
        while remaining != 0 {
            let state = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            guard state < atoms.count, accepts(state) else { continue }
            next |= repetitions[state] == .any ? closures[state] : closures[state + 1]
        }
        return next
    }

    @inline(__always)
    private func accepts(_ states: UInt64) -> Bool { states & (1 << UInt64(atoms.count)) != 0 }

    /// A character that stands for itself inside and outside a set: letters, digits, space and
    /// punctuation without a meaning in either.
    private static func isLiteralAnywhere(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "_"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "'"), UInt8(ascii: "!"), UInt8(ascii: "@"), UInt8(ascii: "%"),
            UInt8(ascii: "/"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            true
        default: false
        }
    }

    /// A character that stands for itself outside a set.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "&"), UInt8(ascii: "="),
            UInt8(ascii: "~"), UInt8(ascii: "`"):
            true
        default: isLiteralAnywhere(byte)
        }
    }

    /// A punctuation character that an escape makes literal.
    private static func isPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    /// A set after its `[`: plain characters and ranges of them, and whether a first `^`
    /// negates them; `nil` for anything else (escapes, nested sets, POSIX classes, `&&`, an
    /// empty set).
    private static func parseSet(_ bytes: inout ArraySlice<UInt8>) -> (ByteSet, negated: Bool)? {
        var set = ByteSet()
        let negated = bytes.first == UInt8(ascii: "^")
        if negated { bytes.removeFirst() }
        var members = 0
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "]") {
                guard members > 0 else { return nil }
                return (set, negated)
            }
            guard isSetMember(byte) else { return nil }
            if bytes.first == UInt8(ascii: "-"), bytes.count >= 2, bytes[bytes.startIndex + 1] != UInt8(ascii: "]") {
                let upper = bytes[bytes.startIndex + 1]
                guard isSetMember(upper), upper >= byte else { return nil }
                bytes.removeFirst(2)
                set.insert(byte...upper)
            } else {
                set.insert(byte)
            }
            members += 1
        }
        return nil
    }

    /// A character that stands for itself inside a set: those of ``isLiteralAnywhere(_:)`` and
    /// the quantifiers and `.` (not `:` or `=`: ICU reads `[:Lu:]` and `[=a=]` as property and
    /// equivalence classes).
    private static func isSetMember(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"): true
        default: isLiteralAnywhere(byte)
        }
    }
}
