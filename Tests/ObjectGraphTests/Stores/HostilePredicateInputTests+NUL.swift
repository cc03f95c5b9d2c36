import Foundation
import Testing

@testable import ObjectGraph

extension HostilePredicateInputTests {
    /// Values and constants holding a NUL character, ASCII and not, reach every string operator
    /// with every option without trapping (Foundation's searches have tripped on NUL before), and
    /// the operators agree with a plain scalar-by-scalar check where no folding is involved.
    @Test func stringOperatorsTakeNULCharactersInValuesAndConstants() throws {
        let (_, context) = try makeContext()
        let names = ["a\u{0}b", "é\u{0}ü", "\u{0}", "x\u{0}", "\u{0}é", "plain", "ÉCOLE\u{0}", ""]
        for name in names { makeFruit(context, name) }
        try context.save()
        for op in ["CONTAINS", "BEGINSWITH", "ENDSWITH", "==", "LIKE"] {
            for options in ["", "[c]", "[d]", "[cd]"] {
                for constant in ["\u{0}", "a\u{0}", "\u{0}ü", "é\u{0}", "\u{0}b", "école\u{0}"] {
                    let request = FetchRequest<Fruit>(
                        predicate: try FetchPredicate(format: "name \(op)\(options) %@", constant))
                    let found = Set(try context.fetch(request).map(\.name))
                    guard options.isEmpty, op != "LIKE" else { continue }
                    let expected = Set(
                        names.filter { name in
                            let value = Array(name.unicodeScalars)
                            let wanted = Array(constant.unicodeScalars)
                            switch op {
                            case "CONTAINS":
                                return value.count >= wanted.count
                                    && (0...(value.count - wanted.count)).contains {
                                        Array(value[$0..<($0 + wanted.count)]) == wanted
                                    }
                            case "BEGINSWITH": return value.starts(with: wanted)
                            case "ENDSWITH": return value.reversed().starts(with: wanted.reversed())
                            default: return value == wanted
                            }
                        })
                    #expect(found == expected, "name \(op) \(constant.debugDescription)")
                }
            }
        }
    }
}
