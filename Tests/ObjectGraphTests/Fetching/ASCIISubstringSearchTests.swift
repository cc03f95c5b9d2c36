import Testing

@testable import ObjectGraph

/// The ASCII shortcut of `PreparedString` finds candidates for a substring eight bytes at a
/// time: it must agree with comparing at every position, with and without `[c]`, for
/// occurrences at every offset around the eight-byte steps, at the ends and overlapping.
@Suite struct ASCIISubstringSearchTests {
    /// Whether `constant` (already lower-case under `lowercasing`) occurs in `subject`, tried at
    /// every position.
    static func reference(_ subject: [UInt8], _ constant: [UInt8], lowercasing: Bool) -> Bool {
        guard constant.count <= subject.count else { return false }
        let lowered = lowercasing ? subject.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } : subject
        return (0...(subject.count - constant.count)).contains {
            Array(lowered[$0..<($0 + constant.count)]) == constant
        }
    }

    @Test(arguments: [false, true])
    func agreesWithComparingAtEveryPosition(lowercasing: Bool) {
        var generator = SeededGenerator(seed: lowercasing ? 21 : 20)
        // Letters in both cases, the bytes that differ from a letter by 0x20 only, and others.
        let alphabet = Array("aAbBeE@`[{zZ09 \u{7F}\t".utf8)
        for _ in 0..<4_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let subject = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let constantLength = Int.random(in: 0...4, using: &generator)
            var constant = (0..<constantLength).map { _ in alphabet.randomElement(using: &generator)! }
            if lowercasing { constant = constant.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }
            let expected = Self.reference(subject, constant, lowercasing: lowercasing)
            let value = String(decoding: subject, as: UTF8.self)
            #expect(
                PreparedString.asciiMatch(value, constant, .substring, lowercasing: lowercasing) == expected,
                "\(value.debugDescription) contains \(String(decoding: constant, as: UTF8.self).debugDescription)")
        }
    }

    @Test func findsAnOccurrenceAtEveryOffset() {
        for length in 1...33 {
            for offset in 0..<length {
                var subject = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                subject[offset] = UInt8(ascii: "E")
                let value = String(decoding: subject, as: UTF8.self)
                #expect(PreparedString.asciiMatch(value, Array("e".utf8), .substring, lowercasing: true) == true)
                #expect(PreparedString.asciiMatch(value, Array("e".utf8), .substring, lowercasing: false) == false)
                #expect(PreparedString.asciiMatch(value, Array("E".utf8), .substring, lowercasing: false) == true)
                // A two-byte constant cannot start at the last byte.
                #expect(
                    PreparedString.asciiMatch(value, Array("ex".utf8), .substring, lowercasing: true)
                        == (offset < length - 1))
            }
        }
        // A candidate that fails, then an overlapping one that matches.
        #expect(PreparedString.asciiMatch("aaaaaaaaab", Array("aab".utf8), .substring, lowercasing: false) == true)
        #expect(PreparedString.asciiMatch("AAAAAAAAAB", Array("aab".utf8), .substring, lowercasing: true) == true)
        #expect(PreparedString.asciiMatch("abc", Array("".utf8), .substring, lowercasing: true) == true)
        #expect(PreparedString.asciiMatch("", Array("a".utf8), .substring, lowercasing: true) == false)
        // A value that is not ASCII, wherever its first such byte is, is left to the slow path.
        for offset in 0..<20 {
            var value = String(repeating: "e", count: 20)
            value.insert("é", at: value.index(value.startIndex, offsetBy: offset))
            #expect(PreparedString.asciiMatch(value, Array("e".utf8), .substring, lowercasing: true) == nil)
        }
    }
}
