/// A row-local predicate's conjuncts flattened for scans: integer ranges and case-sensitive
/// ASCII prefixes are evaluated inline, without dynamic dispatch or copies of their constants;
/// any other conjunct (and any value these steps cannot decide) runs as compiled.
///
/// A program matches exactly the rows ``CompiledPredicate/matchesRow(_:)`` matches, less any
/// conjunct it was told to skip (one an index already guarantees for its candidates).
final class RowProgram {
    enum Step {
        /// An integer value in `lower...upper` (empty when `lower > upper`).
        case integerRange(slot: Int, lower: Int64, upper: Int64, node: Int)
        /// A string that begins with an ASCII prefix, case- and diacritic-sensitive.
        case asciiPrefix(slot: Int, ASCIIPrefix, node: Int)
        /// Any other conjunct.
        case node(Int)
    }

    private let steps: UnsafeMutableBufferPointer<Step>
    /// The compiled conjuncts, for the steps that fall back to them.
    private let nodes: [PredicateNode]
    /// The conjuncts a ``StringPrefixColumn`` of their slot can rule rows out of.
    let columnTests: [(slot: Int, test: StringColumnTest)]
    /// The conjuncts ``StringSignatureColumn``s can rule rows out of or settle: a string test,
    /// its negation (`NOT name CONTAINS 'x'`), or a disjunction of those.
    let signatureTests: [SignatureTest]

    /// A conjunct signature columns can test: the disjunction of its alternatives (one for a
    /// conjunct that is not a disjunction), and its bit in the masks of
    /// ``matches(_:holding:)`` (0 for a conjunct past the 64th).
    struct SignatureTest {
        struct Alternative {
            let slot: Int
            let test: StringSignatureCondition
            let negated: Bool
        }

        let alternatives: [Alternative]
        let holdsBit: UInt64

        /// The alternatives of `conjunct`'s disjuncts, if each is a string test a signature
        /// column can test, or the negation of one.
        static func alternatives(of conjunct: PredicateNode) -> [Alternative]? {
            var disjuncts: [PredicateNode] = []
            conjunct.appendDisjuncts(to: &disjuncts)
            guard disjuncts.count > 1 else { return nil }
            var alternatives: [Alternative] = []
            for disjunct in disjuncts {
                if let (slot, test) = disjunct.slotTest, let signatureTest = test.signatureTest {
                    alternatives.append(Alternative(slot: slot, test: signatureTest, negated: false))
                } else if let (slot, test) = disjunct.negatedSlotTest, let signatureTest = test.signatureTest {
                    alternatives.append(Alternative(slot: slot, test: signatureTest, negated: true))
                } else {
                    return nil
                }
            }
            return alternatives
        }
    }

    /// The program of `predicate`'s conjuncts (which must be row-local), without the conjuncts
    /// that test one of `implied` (compared by identity).
    init(_ predicate: CompiledPredicate, skipping implied: [ValueMatcher] = []) {
        var conjuncts: [PredicateNode] = []
        predicate.root.appendConjuncts(to: &conjuncts)
        var steps: [Step] = []
        var nodes: [PredicateNode] = []
        var columnTests: [(slot: Int, test: StringColumnTest)] = []
        var signatureTests: [SignatureTest] = []
        for conjunct in conjuncts {
            if let test = conjunct.slotTest, implied.contains(where: { $0 === test.test }) { continue }
            let node = nodes.count
            let holdsBit: UInt64 = node < 64 ? 1 << UInt64(node) : 0
            if let (slot, test) = conjunct.slotTest, let columnTest = test.columnTest {
                columnTests.append((slot, columnTest))
            }
            // A prefix column decides an ASCII `BEGINSWITH` or `==` more closely than a
            // signature, but not a row whose first bytes differ at a non-ASCII byte: under `[c]`
            // or `[d]` that row would be folded again, while the signature column keeps it
            // folded (the signature pass tests only the rows the prefix column leaves).
            if let (slot, test) = conjunct.slotTest, let signatureTest = test.signatureTest,
                test.columnTest == nil || !signatureTest.options.isEmpty
            {
                signatureTests.append(
                    SignatureTest(
                        alternatives: [.init(slot: slot, test: signatureTest, negated: false)], holdsBit: holdsBit))
            } else if let (slot, test) = conjunct.negatedSlotTest, let signatureTest = test.signatureTest {
                signatureTests.append(
                    SignatureTest(
                        alternatives: [.init(slot: slot, test: signatureTest, negated: true)], holdsBit: holdsBit))
            } else if let alternatives = SignatureTest.alternatives(of: conjunct) {
                signatureTests.append(SignatureTest(alternatives: alternatives, holdsBit: holdsBit))
            }
            nodes.append(conjunct)
            if let (slot, test) = conjunct.slotTest, let step = test.rowStep(slot: slot, node: node) {
                steps.append(step)
            } else {
                steps.append(.node(node))
            }
        }
        self.steps = .allocate(capacity: steps.count)
        _ = self.steps.initialize(from: steps)
        self.nodes = nodes
        self.columnTests = columnTests
        self.signatureTests = signatureTests
    }

    deinit {
        steps.deallocate()
    }

    /// Whether the row with `values` (read in place) satisfies every step.
    @inline(__always)
    func matches(_ values: UnsafeBufferPointer<StoreValue>) -> Bool { matches(values, holding: 0) }

    /// Whether the row with `values` (read in place) satisfies every step, skipping the
    /// conjuncts whose bit is set in `holding` (settled as holding by a signature column).
    @inline(__always)
    func matches(_ values: UnsafeBufferPointer<StoreValue>, holding: UInt64) -> Bool {
        for step in steps {
            switch step {
            case .integerRange(let slot, let lower, let upper, let node):
                if case .int(let value) = values[slot] {
                    if value < lower || value > upper { return false }
                } else if !nodes[node].matchesRow(values) {
                    return false
                }
            case .asciiPrefix(let slot, let prefix, let node):
                switch prefix.begins(values[slot]) {
                case true: continue
                case false: return false
                case nil: if !nodes[node].matchesRow(values) { return false }
                }
            case .node(let node):
                if holding != 0, node < 64, holding & (1 << UInt64(node)) != 0 { continue }
                if !nodes[node].matchesRow(values) { return false }
            }
        }
        return true
    }
}

/// An ASCII prefix of up to 16 bytes, held inline, for ``RowProgram``.
struct ASCIIPrefix {
    private let low: UInt64
    private let high: UInt64
    private let count: Int

    /// The prefix, or `nil` if `bytes` are not ASCII or longer than 16.
    init?(_ bytes: [UInt8]) {
        guard bytes.count <= 16, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (position, byte) in bytes.enumerated() {
            if position < 8 {
                words.0 |= UInt64(byte) << UInt64(position * 8)
            } else {
                words.1 |= UInt64(byte) << UInt64((position - 8) * 8)
            }
        }
        (low, high, count) = (words.0, words.1, bytes.count)
    }

    @inline(__always)
    private func byte(_ position: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (position < 8 ? low : high) >> UInt64((position & 7) * 8))
    }

    /// Whether `value` is a string that begins with the prefix, as Swift's `hasPrefix` (the
    /// compiled test) decides, when its first bytes decide it: `nil` when they do not (a
    /// non-ASCII byte among the first `count + 1`, which may compose with or be canonically
    /// equivalent to the prefix's characters, a `"\r\n"` across its end, or a value that is not
    /// a string).
    ///
    /// ASCII characters are their own canonical form and only combine with following marks
    /// (non-ASCII) or as CR LF, so a mismatch at an ASCII byte after matching ASCII bytes is
    /// final, and a match followed by an ASCII byte or the end is complete.
    ///
    /// `value` is borrowed (read where it lies, as a scan passes it): a copy would retain the
    /// string, an atomic write that keeps the next rows' reads from overlapping this one's.
    @inline(__always)
    func begins(_ value: borrowing StoreValue) -> Bool? {
        switch value {
        case .string(let text): begins(utf8: text)
        default: nil
        }
    }

    @inline(__always)
    private func begins(utf8 text: borrowing String) -> Bool? {
        let decided = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            let checked = Swift.min(count, bytes.count)
            for position in 0..<checked {
                let byte = bytes[position]
                if byte >= 0x80 { return nil }
                if byte != self.byte(position) { return false }
            }
            if bytes.count < count { return false }
            if bytes.count == count { return true }
            let next = bytes[count]
            if next >= 0x80 || (next == 0x0A && count > 0 && self.byte(count - 1) == 0x0D) { return nil }
            return true
        }
        // A string without contiguous UTF-8 (bridged) is left to the compiled test.
        return decided ?? nil
    }
}
