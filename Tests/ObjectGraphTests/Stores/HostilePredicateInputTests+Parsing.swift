import Foundation
import Testing

@testable import ObjectGraph

extension HostilePredicateInputTests {
    /// Each `(` may open a predicate or an expression; the parser tries one, then the other, so
    /// nested parentheses (here with `TERNARY`, whose condition is a predicate again) cost twice
    /// as much per level. The FuzzPredicateFormat target found this 124-byte input, which took
    /// minutes; the parser's work is now bounded by the number of tokens.
    @Test(.timeLimit(.minutes(1)))
    func nestedParenthesesThatMakeTheParserBacktrackAreRefusedFast() throws {
        let found =
            "((((((((((TERNARY(((((((((((((((((TERNARY((((TERNARY(((((((((((((((((TERNARY((((((((TERNARY"
            + "(((((((((TERNARY(((((((((((\tB50\t"
        let ternaries = String(repeating: "((TERNARY(", count: 30) + "price"
        for format in [found, ternaries] {
            let clock = ContinuousClock()
            let start = clock.now
            let error = #expect(throws: PersistenceError.self) { _ = try FetchPredicate(format: format) }
            #expect(clock.now - start < .seconds(5))
            #expect(error?.code == .invalidPredicate)
            #expect(
                error?.message.contains("remove needless ones") == true,
                "\(String(describing: error))")
        }
    }

    @Test func ordinaryParenthesesStillParse() throws {
        for format in [
            "((price + 1) * 2) == 4", "(((name == 'a')))", "(price & 4) == 4 AND (name == 'x' OR (price > 1))",
            "TERNARY((price > 1), name, 'x') == 'a'", "((((((price + 1) + 1) + 1) + 1) + 1) + 1) == 7",
            String(repeating: "(", count: 150) + "price" + String(repeating: ")", count: 150) + " == 1",
        ] {
            _ = try FetchPredicate(format: format)
        }
    }
}
