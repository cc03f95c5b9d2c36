import Foundation
import Testing

@testable import ObjectGraph

/// The byte shortcut for an ASCII constant against values that are not ASCII
/// (`PreparedString.asciiConstantMatch`): where it decides, it agrees with the Character
/// comparison, and it leaves combining marks, CR LF and ASCII-equivalent scalars to it.
@Suite struct ASCIIConstantMatchTests {
    static let subjects = [
        "ítem e", "e\u{301}", "cafe\u{301} x", "café", "x e\u{301}", "\u{212A}elvin", "a\u{37E}", "a;",
        "x`\u{1FEF}", "\u{600}1 ab", "ab\u{200D}", "Ab\u{308}c", "👍🏽 ok", "ok👍", "ok", "k", "x\r\ny",
        "ÿ ok ÿ", "ok ok\u{301}", "lorem ípsum dolor sit amet even", "",
        // Past the eight-byte steps of the candidate search: occurrences at several offsets.
        "ítem xxxxxxxxxxxxxxxxxx ok", "xxxxxxxxxxxxxxxé ab e\u{301} x", "é1234567ok89abcdefok\u{301}",
    ]
    static let constants = [
        "e", "ok", "k", "Kelvin", "a;", "`", "1", "ab", "b", "c", "x", "\n", "y", "ok ", "even", "",
    ]

    @Test func agreesWithTheCharacterComparisonWhereItDecides() {
        PreparedStringAgreement.check(subjects: Self.subjects, constants: Self.constants) {
            subject, constant, operation, expected in
            if let decided = PreparedString.asciiConstantMatch(subject, Array(constant.utf8), operation) {
                #expect(decided == expected, "\(subject.debugDescription) \(operation) \(constant)")
            }
        }
    }

    @Test func decidesWholeASCIICharactersInAValueThatIsNotASCII() {
        #expect(PreparedString.asciiConstantMatch("ítem even 7", Array("even".utf8), .substring) == true)
        #expect(PreparedString.asciiConstantMatch("ítem odd 7", Array("even".utf8), .substring) == false)
        #expect(PreparedString.asciiConstantMatch("ok ítem", Array("ok".utf8), .prefix) == true)
        #expect(PreparedString.asciiConstantMatch("ítem ok", Array("ok".utf8), .suffix) == true)
        #expect(PreparedString.asciiConstantMatch("ítem", Array("item".utf8), .equal) == false)
    }

    @Test func leavesCombiningMarksCRLFAndASCIIEquivalentsToTheCharacterComparison() {
        #expect(PreparedString.asciiConstantMatch("cafe\u{301}", Array("cafe".utf8), .substring) == nil)
        #expect(PreparedString.asciiConstantMatch("ok\u{301}", Array("ok".utf8), .prefix) == nil)
        #expect(PreparedString.asciiConstantMatch("x\r\ny", Array("\n".utf8), .substring) == nil)
        #expect(PreparedString.asciiConstantMatch("\u{212A}elvin", Array("Kelvin".utf8), .equal) == nil)
        #expect(PreparedString.asciiConstantMatch("é\u{37E}", Array(";".utf8), .substring) == nil)
    }
}
