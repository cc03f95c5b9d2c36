import Foundation
import Testing

@testable import ObjectGraph

/// The byte shortcut for a constant that is not ASCII (`PreparedString.boundedBytesMatch`): an
/// occurrence of its bytes bounded by ASCII is a match, exactly as the Character comparison
/// finds; occurrences that a mark, a joiner or a prepended sign would join, and constants that
/// join their neighbours, are left to that comparison.
@Suite struct BoundedBytesMatchTests {
    static let subjects = [
        "é", "é x", "x é", "x é y", "e\u{301}", "xé\u{301}", "é\u{301} x", "é\u{200D}x", "\u{600}é", "ÿé", "éé",
        "lorem ípsum dolor sit amet", "lorem ípsum dolor sit amet even", "LOREM ÍPSUM", "xýz", "axýzb", "xýz\u{308}",
        "日本語テキスト", "テキ", "テキ\u{3099}", "👩\u{200D}💻 xýz", "🇫🇷🇫🇷", "🇫🇷", "\r\né", "é\r\n", "",
        "Ωmega", "\u{2126}mega", "straße", "ﬁne",
    ]
    static let constants = [
        "é", "ý", "xýz", "ípsum dolor", "lorem ípsum dolor sit amet", "テキ", "日本", "🇫🇷", "\u{301}", "é\u{301}",
        "\u{200D}x", "\u{600}", "Ω", "ß", "ﬁ",
    ]

    @Test func agreesWithTheCharacterComparisonWhereItDecides() {
        PreparedStringAgreement.check(subjects: Self.subjects, constants: Self.constants) {
            subject, constant, operation, expected in
            if let bytes = PreparedString.boundedConstantBytes(of: constant),
                let decided = PreparedString.boundedBytesMatch(subject, bytes, operation)
            {
                #expect(decided && expected, "\(subject.debugDescription) \(operation) \(constant.debugDescription)")
            }
        }
    }

    @Test func decidesBoundedOccurrencesAndLeavesTheRest() {
        let bytes = PreparedString.boundedConstantBytes(of: "é")!
        #expect(PreparedString.boundedBytesMatch("x é y", bytes, .substring) == true)
        #expect(PreparedString.boundedBytesMatch("é", bytes, .equal) == true)
        #expect(PreparedString.boundedBytesMatch("é x", bytes, .prefix) == true)
        // A combining mark after the bytes, or bytes inside a longer sequence: not decided.
        #expect(PreparedString.boundedBytesMatch("é\u{301} x", bytes, .prefix) == nil)
        #expect(PreparedString.boundedBytesMatch("ÿé", bytes, .suffix) == nil)
        #expect(PreparedString.boundedBytesMatch("x", bytes, .substring) == nil)
        // Constants that join a neighbour have no bounded bytes.
        #expect(PreparedString.boundedConstantBytes(of: "\u{301}") == nil)
        #expect(PreparedString.boundedConstantBytes(of: "\u{600}") == nil)
        #expect(PreparedString.boundedConstantBytes(of: "\u{200D}x") == nil)
        #expect(PreparedString.boundedConstantBytes(of: "é\r") == nil)
        #expect(PreparedString.boundedConstantBytes(of: "abc") == nil)
    }
}
