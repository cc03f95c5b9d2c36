import Foundation
import Testing

@testable import ObjectGraph

/// `MATCHES` patterns of the simplest kind run as an automaton (``SimpleRegexProgram``): it
/// must decide exactly what `NSRegularExpression` decides for the anchored pattern, with and
/// without `[c]`, on ASCII values and on values that are not, and leave the rest to it.
@Suite struct SimpleRegexProgramTests {
    static func reference(_ pattern: String, _ subject: String, caseInsensitive: Bool) throws -> Bool {
        let expression = try NSRegularExpression(
            pattern: "\\A(?:\(pattern))\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        return expression.firstMatch(in: subject, range: NSRange(location: 0, length: subject.utf16.count)) != nil
    }

    static let atoms = [
        "a", "b", "Z", "0", "7", " ", "_", "-", ",", ".", "\\.", "\\d", "\\*", "\\\\", "\\[", "[a-z]", "[A-Z0-9]",
        "[^ ]", "[^a-c]", "[ab_]", "[.*+?]", "[0-9]", "'", "@",
    ]
    static let quantifiers = ["", "", "*", "+", "?"]

    /// A pattern of up to `maxAtoms` random atoms, each with a random quantifier (or none).
    static func randomPattern(maxAtoms: Int, using generator: inout SeededGenerator) -> String {
        var pattern = ""
        for _ in 0..<Int.random(in: 0...maxAtoms, using: &generator) {
            pattern += atoms.randomElement(using: &generator)! + quantifiers.randomElement(using: &generator)!
        }
        return pattern
    }

    @Test(arguments: [false, true])
    func randomPatternsDecideAsICUDoes(caseInsensitive: Bool) throws {
        var generator = SeededGenerator(seed: caseInsensitive ? 3 : 2)
        let alphabet = Array("abcABZz0179 _-,.*+?'@\t\n\r\u{0B}\u{0C}\u{7F}[]\\")
        for _ in 0..<300 {
            let pattern = Self.randomPattern(maxAtoms: 5, using: &generator)
            let program = try #require(SimpleRegexProgram(pattern, caseInsensitive: caseInsensitive), "\(pattern)")
            for _ in 0..<40 {
                let length = Int.random(in: 0...8, using: &generator)
                let subject = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                let expected = try Self.reference(pattern, subject, caseInsensitive: caseInsensitive)
                #expect(
                    program.matches(subject) == expected,
                    "\(pattern.debugDescription) on \(subject.debugDescription), [c]: \(caseInsensitive)")
            }
        }
    }

    @Test func valuesThatAreNotASCIIDecideAsICUDoesWithoutCaseInsensitivity() throws {
        var generator = SeededGenerator(seed: 5)
        let alphabet: [Character] = [
            "a", "Z", "0", " ", "\n", "\r\n", "é", "e\u{301}", "\u{663}", "\u{FF19}", "\u{85}", "\u{2028}", "\u{2029}",
            "日", "😀", "\u{212A}", "ſ", "ß", "ı",
        ]
        for _ in 0..<300 {
            let pattern = Self.randomPattern(maxAtoms: 4, using: &generator)
            let program = try #require(SimpleRegexProgram(pattern, caseInsensitive: false), "\(pattern)")
            let caseInsensitiveProgram = try #require(SimpleRegexProgram(pattern, caseInsensitive: true))
            for _ in 0..<30 {
                let length = Int.random(in: 0...6, using: &generator)
                let subject = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                let expected = try Self.reference(pattern, subject, caseInsensitive: false)
                // Without `\d` every value is decided; with it, only up to a non-ASCII scalar.
                let decided = program.matches(subject)
                #expect(
                    decided == expected || (decided == nil && pattern.contains("\\d")),
                    "\(pattern.debugDescription) on \(subject.debugDescription)")
                // Under `[c]` only the ASCII part before a non-ASCII scalar can decide (a miss).
                if let decided = caseInsensitiveProgram.matches(subject) {
                    #expect(decided == (try Self.reference(pattern, subject, caseInsensitive: true)))
                    #expect(!decided || subject.utf8.allSatisfy { $0 < 0x80 })
                }
            }
        }
    }

    @Test func dotAndSetsAgreeWithICUOnEveryASCIICharacter() throws {
        for pattern in [".", "[^a]", "\\d", "[a-z]", "[ -/]", "a"] {
            for caseInsensitive in [false, true] {
                let program = try #require(SimpleRegexProgram(pattern, caseInsensitive: caseInsensitive))
                for code in 0..<128 {
                    let subject = String(UnicodeScalar(UInt8(code)))
                    let expected = try Self.reference(pattern, subject, caseInsensitive: caseInsensitive)
                    #expect(program.matches(subject) == expected, "\(pattern) on \(code), [c]: \(caseInsensitive)")
                }
            }
        }
        // CR LF is one line terminator to ICU, and `.` matches neither half.
        #expect(try Self.reference("..", "\r\n", caseInsensitive: false) == false)
        #expect(SimpleRegexProgram("..", caseInsensitive: false)?.matches("\r\n") == false)
    }

    @Test func otherPatternsAndValuesHaveNoProgram() {
        for pattern in [
            "(ab)+", "a|b", "^a", "a$", "a{2}", "a*?", "a++", "\\w", "\\s", "\\b", "[[:alpha:]]", "[a-]", "[]", "é",
            "[\\d]", "a**", "*a", "(?i)a", "\\Qa\\E", "[a&&b]", "[:Lu:]", "[:digit:]+", "[^:Lu:]", "[=a=]", "[a:]",
        ] {
            #expect(SimpleRegexProgram(pattern, caseInsensitive: false) == nil, "\(pattern)")
        }
        let program = SimpleRegexProgram(".+ [a-z]+ [0-9]+", caseInsensitive: false)
        #expect(program?.matches("w12 item 7") == true)
        #expect(program?.matches("w12 ítem 7") == false)
        #expect(SimpleRegexProgram(".+ [a-z]+ [0-9]+", caseInsensitive: true)?.matches("w12 ítem 7") == nil)
        // `\d` outside ASCII is ICU's Unicode version's to decide.
        #expect(SimpleRegexProgram("\\d+", caseInsensitive: false)?.matches("1\u{663}") == nil)
        #expect(SimpleRegexProgram("\\d+", caseInsensitive: false)?.matches("12") == true)
    }

    /// A set of states is one word: 63 atoms (with the end state, 64 states) have a program, 64
    /// do not (ICU matches them), and `x+` counts as two atoms.
    @Test func programsHoldAtMostSixtyThreeAtoms() throws {
        let longest = String(repeating: "a", count: 62) + "b?"
        let program = try #require(SimpleRegexProgram(longest, caseInsensitive: false))
        #expect(program.matches(String(repeating: "a", count: 62)) == true)
        #expect(program.matches(String(repeating: "a", count: 62) + "b") == true)
        #expect(program.matches(String(repeating: "a", count: 61) + "b") == false)
        #expect(SimpleRegexProgram(String(repeating: "a", count: 64), caseInsensitive: false) == nil)
        #expect(SimpleRegexProgram(String(repeating: "a", count: 62) + "b+", caseInsensitive: false) == nil)
        #expect(SimpleRegexProgram(String(repeating: "a", count: 61) + "b+", caseInsensitive: false) != nil)
        // The fetch falls back to ICU for the longer pattern and finds the same objects.
        let container = try PersistentContainer(
            model: PrefixColumnStore.model(priceIndexed: false), storeDescription: .inMemory)
        let context = container.newContext()
        let names = [String(repeating: "a", count: 64), String(repeating: "a", count: 63), "a"]
        for name in names {
            try ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
                .setValue(name, forKey: "name")
        }
        try context.save()
        let request = FetchRequest<ManagedObject>(
            entityName: "Item",
            predicate: try FetchPredicate(format: "name MATCHES %@", String(repeating: "a", count: 63) + "a*"))
        let fetched = try context.fetch(request).compactMap { try $0.value(forKey: "name") as? String }
        #expect(fetched.sorted() == names.prefix(2).sorted())
    }

    @Test func fetchesWithSimplePatternsAgreeWithICU() throws {
        let container = try PersistentContainer(
            model: PrefixColumnStore.model(priceIndexed: false), storeDescription: .inMemory)
        let context = container.newContext()
        let names = ["w12 item 7", "W12 ITEM 7", "w12 ítem 7", "item", "", "a\nb 1", "x y 99", "12 ab 3"]
        for name in names {
            try ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
                .setValue(name, forKey: "name")
        }
        try context.save()
        for (format, caseInsensitive) in [
            ("name MATCHES '.+ [a-z]+ [0-9]+'", false), ("name MATCHES[c] '.+ [a-z]+ [0-9]+'", true),
            ("name MATCHES[cd] '.+ [a-z]+ [0-9]+'", true), ("name MATCHES '.*'", false),
        ] {
            let request = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: format))
            let fetched = try context.fetch(request).compactMap { try $0.value(forKey: "name") as? String }
            let pattern = ".+ [a-z]+ [0-9]+"
            let expected = try names.filter { name in
                if format.hasSuffix("'.*'") { return try Self.reference(".*", name, caseInsensitive: false) }
                let subject = format.contains("[cd]") ? PredicateFolding.fold(name, [.diacriticInsensitive]) : name
                return try Self.reference(pattern, subject, caseInsensitive: caseInsensitive)
            }
            #expect(fetched.sorted() == expected.sorted(), "\(format)")
        }
    }
}
