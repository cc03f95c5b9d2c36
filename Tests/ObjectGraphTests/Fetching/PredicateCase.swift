import Foundation
import ObjectGraph
import Testing

/// One row of the predicate table: a format, its arguments (and variables), and the names of
/// the fixture's products it selects, in key order.
struct PredicateCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: @Sendable (PredicateFixture) -> [Any?]
    let variables: (@Sendable (PredicateFixture) -> [String: Any?])?
    let expected: [String]

    init(_ format: String, _ expected: [String]) {
        self.init(format, { _ in [] }, expected)
    }

    /// A case whose arguments need no fixture.
    init(_ format: String, args: [any Sendable], _ expected: [String]) {
        self.init(format, { _ in args.map { $0 } }, expected)
    }

    /// A case whose arguments are objects of the fixture.
    init(_ format: String, _ arguments: @escaping @Sendable (PredicateFixture) -> [Any?], _ expected: [String]) {
        self.format = format
        self.arguments = arguments
        self.variables = nil
        self.expected = expected
    }

    /// A case with substitution variables.
    init(
        _ format: String, variables: @escaping @Sendable (PredicateFixture) -> [String: Any?], _ expected: [String]
    ) {
        self.format = format
        self.arguments = { _ in [] }
        self.variables = variables
        self.expected = expected
    }

    var testDescription: String { format }

    func predicate(in fixture: PredicateFixture) throws -> FetchPredicate {
        let predicate = try FetchPredicate(format: format, argumentArray: arguments(fixture))
        guard let variables else { return predicate }
        return try predicate.withSubstitutionVariables(variables(fixture))
    }

    static var all: [PredicateCase] {
        strings + stringOperators + numbers + otherKinds + logic + relationships + computed
    }

    static let everything = PredicateFixtureData.names
    static func except(_ names: String...) -> [String] {
        PredicateFixtureData.names.filter { !names.contains($0) }
    }

    static let nilNotes = ["Apple Pie", "", "max", "min", "nan", "e\u{301}clair"]
    static let notes = ["apple", "banana", "Ärger", "café", "CAFE", "りんご", "straße", "emoji 🍎"]
    static let inStock = ["apple", "banana", "café", "りんご", "straße", "e\u{301}clair", "emoji 🍎"]
    static let notInStock = ["Apple Pie", "Ärger", "CAFE", "", "max", "min", "nan"]
    static let noShelf = ["café", "CAFE", "", "max", "min", "nan", "straße", "e\u{301}clair", "emoji 🍎"]
    static let noLabels = ["Ärger", "café", "", "max", "min", "nan", "straße", "e\u{301}clair", "emoji 🍎"]

    // MARK: - Equality of strings, nil

    // Predicate Programming Guide, "Predicate Format String Syntax": "String comparisons are, by
    // default, case and diacritic sensitive. You can modify an operator using the key characters
    // c and d within square braces to specify case and diacritic insensitivity respectively."
    static let strings: [PredicateCase] = [
        PredicateCase("name == 'apple'", ["apple"]),
        PredicateCase("name = \"apple\"", ["apple"]),
        PredicateCase("name == %@", args: ["apple"], ["apple"]),
        PredicateCase("name != 'apple'", except("apple")),
        PredicateCase("name <> 'apple'", except("apple")),
        PredicateCase("name == 'APPLE'", []),
        PredicateCase("name ==[c] 'APPLE'", ["apple"]),
        PredicateCase("name ==[c] 'cafe'", ["CAFE"]),
        PredicateCase("name ==[d] 'cafe'", ["café"]),
        PredicateCase("name ==[cd] 'cafe'", ["café", "CAFE"]),
        PredicateCase("name ==[dc] 'CAFÉ'", ["café", "CAFE"]),
        PredicateCase("name ==[cd] 'ÉCLAIR'", ["e\u{301}clair"]),
        // Canonically equivalent strings are equal (precomposed é in the format, decomposed stored).
        PredicateCase("name == 'éclair'", ["e\u{301}clair"]),
        PredicateCase("name == ''", [""]),
        PredicateCase("name == 'りんご'", ["りんご"]),
        PredicateCase("name ==[c] 'STRASSE'", ["straße"]),
        PredicateCase("name == 'emoji 🍎'", ["emoji 🍎"]),
        PredicateCase("name == nil", []),
        // "Using Null Values": a comparison predicate does not match any value with null except
        // null (nil) itself.
        PredicateCase("note == nil", nilNotes),
        PredicateCase("note == NULL", nilNotes),
        PredicateCase("note == %@", args: [String?.none as any Sendable], nilNotes),
        PredicateCase("nil == note", nilNotes),
        PredicateCase("note != nil", notes),
        PredicateCase("note != NIL", notes),
        PredicateCase("note == ''", ["banana"]),
        // A nil value is not equal to a string, so != matches it.
        PredicateCase("note != 'fresh'", except("apple")),
        PredicateCase("note == 'fresh' OR note == nil", ["apple"] + nilNotes),
        PredicateCase("name == %@", args: [Substring("banana")], ["banana"]),
        PredicateCase("name == \"it's\"", []),
        PredicateCase("name == 'a\\'b'", []),
        PredicateCase("name IN {'apple', 'nan', 'kiwi'}", ["apple", "nan"]),
        PredicateCase("name IN %@", args: [["CAFE", "café"]], ["café", "CAFE"]),
        PredicateCase("name IN %@", args: [Set(["banana", "nan"])], ["banana", "nan"]),
        PredicateCase("name IN[c] {'APPLE', 'cafe'}", ["apple", "CAFE"]),
        PredicateCase("name IN[cd] {'APPLE', 'cafe'}", ["apple", "café", "CAFE"]),
        PredicateCase("name < 'B'", ["Apple Pie", ""]),
        PredicateCase("name <[c] 'b'", ["apple", "Apple Pie", ""]),
        PredicateCase("name BETWEEN {'a', 'c'}", ["apple", "banana"]),
        // IN a string: a substring of it.
        PredicateCase("name IN 'xbananax'", ["banana", "", "nan"]),
    ]

    // MARK: - String operators

    static let stringOperators: [PredicateCase] = [
        PredicateCase("name BEGINSWITH 'a'", ["apple"]),
        PredicateCase("name BEGINSWITH[c] 'a'", ["apple", "Apple Pie"]),
        PredicateCase("name BEGINSWITH[cd] 'a'", ["apple", "Apple Pie", "Ärger"]),
        PredicateCase("name BEGINSWITH[d] 'A'", ["Apple Pie", "Ärger"]),
        PredicateCase("name beginswith 'ba'", ["banana"]),
        // An empty string is a prefix, suffix and substring of every string.
        PredicateCase("name BEGINSWITH ''", everything),
        PredicateCase("name ENDSWITH 'e'", ["apple", "Apple Pie", "straße"]),
        PredicateCase("name ENDSWITH[cd] 'e'", ["apple", "Apple Pie", "café", "CAFE", "straße"]),
        PredicateCase("name ENDSWITH 'ße'", ["straße"]),
        PredicateCase("name CONTAINS 'an'", ["banana", "nan"]),
        PredicateCase("name CONTAINS[c] 'PIE'", ["Apple Pie"]),
        PredicateCase("name CONTAINS '🍎'", ["emoji 🍎"]),
        PredicateCase("name CONTAINS 'ん'", ["りんご"]),
        PredicateCase("name CONTAINS ''", everything),
        PredicateCase("name CONTAINS[cd] 'LAI'", ["e\u{301}clair"]),
        PredicateCase("note BEGINSWITH 'C'", ["café", "CAFE"]),
        PredicateCase("note BEGINSWITH[c] 'c'", ["café", "CAFE"]),
        PredicateCase("note CONTAINS 'au'", ["café"]),
        PredicateCase("note CONTAINS[cd] 'a'", ["Ärger", "café", "CAFE", "straße"]),
        PredicateCase("note ENDSWITH 'ait'", ["café"]),
        PredicateCase("note BEGINSWITH %@", args: [String?.none as any Sendable], []),
        // LIKE: "? and * are allowed as wildcard characters, where ? matches 1 character and *
        // matches 0 or more characters" (Predicate Format String Syntax); the whole string.
        PredicateCase("name LIKE 'a*'", ["apple"]),
        PredicateCase("name LIKE[c] 'a*e'", ["apple", "Apple Pie"]),
        PredicateCase("name LIKE '?a?'", ["max", "nan"]),
        PredicateCase("name LIKE '*'", everything),
        PredicateCase("name LIKE ''", [""]),
        PredicateCase("name LIKE 'caf?'", ["café"]),
        PredicateCase("name LIKE[cd] 'CAF?'", ["café", "CAFE"]),
        PredicateCase("name LIKE 'b*n*a'", ["banana"]),
        PredicateCase("name LIKE 'emoji ?'", ["emoji 🍎"]),
        PredicateCase("name LIKE '\\\\*'", []),
        PredicateCase("name LIKE '*p*p*'", ["apple", "Apple Pie"]),
        PredicateCase("note LIKE '*'", notes),
        PredicateCase("note LIKE '?'", ["Ärger", "emoji 🍎"]),
        // MATCHES: "a regex-style comparison according to ICU v3"; NSPredicate matches the whole
        // string.
        PredicateCase("name MATCHES 'a.*'", ["apple"]),
        PredicateCase("name MATCHES '[a-z]+'", ["apple", "banana", "max", "min", "nan"]),
        PredicateCase("name MATCHES[c] 'APPLE.*'", ["apple", "Apple Pie"]),
        PredicateCase("name MATCHES 'an'", []),
        PredicateCase("name MATCHES '.{3}'", ["りんご", "max", "min", "nan"]),
        PredicateCase("name MATCHES[d] 'cafe'", ["café"]),
        PredicateCase("name MATCHES %@", args: ["b.*a"], ["banana"]),
        PredicateCase("note MATCHES '.*'", notes),
    ]
}
