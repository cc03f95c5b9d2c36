import Foundation
import ObjectGraph
import Testing

/// A format that must fail to parse: the code, the character position and a word of the message.
struct PredicateParseError: Sendable, CustomTestStringConvertible {
    let format: String
    let args: [any Sendable]
    let code: PersistenceError.Code
    let position: Int
    let mentions: String

    init(
        _ format: String, args: [any Sendable] = [], _ code: PersistenceError.Code, at position: Int, _ mentions: String
    ) {
        self.format = format
        self.args = args
        self.code = code
        self.position = position
        self.mentions = mentions
    }

    var testDescription: String { format }

    static let syntax: [PredicateParseError] = [
        PredicateParseError("price 100", .invalidPredicate, at: 6, "expected a comparison operator after 'price'"),
        PredicateParseError("price >", .invalidPredicate, at: 7, "expected a value or key path after '>'"),
        PredicateParseError("", .invalidPredicate, at: 0, "expected a value or key path"),
        PredicateParseError("name == 'apple", .invalidPredicate, at: 8, "unterminated string"),
        PredicateParseError("name == \"apple", .invalidPredicate, at: 8, "unterminated string"),
        PredicateParseError("(price > 1", .invalidPredicate, at: 10, "')'"),
        PredicateParseError("price > 1)", .invalidPredicate, at: 9, "expected AND, OR"),
        PredicateParseError("price > 1 price < 2", .invalidPredicate, at: 10, "expected AND, OR"),
        PredicateParseError("name == 'a\\q'", .invalidPredicate, at: 10, "unknown escape"),
        PredicateParseError("name =! 'a'", .invalidPredicate, at: 6, "expected a value or key path"),
        PredicateParseError("name == 'a' AND", .invalidPredicate, at: 15, "expected a value or key path"),
        PredicateParseError("name == 'a' & name == 'b'", .invalidPredicate, at: 12, "did you mean '&&'"),
        PredicateParseError("name == 'a' | name == 'b'", .invalidPredicate, at: 12, "did you mean '||'"),
        PredicateParseError("name ==[x] 'a'", .invalidPredicate, at: 8, "unknown comparison option 'x'"),
        PredicateParseError("abs:(price, 1) == 1", .invalidPredicate, at: 0, "takes 1 argument"),
        PredicateParseError("now(1) == 1", .invalidPredicate, at: 0, "takes 0 arguments"),
        PredicateParseError("price + == 1", .invalidPredicate, at: 8, "expected a value or key path"),
        PredicateParseError("labels[] == 1", .invalidPredicate, at: 7, "expected an index"),
        PredicateParseError("labels[FIRST == 1", .invalidPredicate, at: 13, "']'"),
        PredicateParseError("TERNARY(price > 1, 2) == 2", .invalidPredicate, at: 20, "','"),
        PredicateParseError("shelf.%K == 1", args: [5], .invalidPredicate, at: 6, "%K takes a key path"),
        PredicateParseError("FUNCTION(SELF) == 1", .invalidPredicate, at: 0, "selector"),
        PredicateParseError("name ==[c 'a'", .invalidPredicate, at: 10, "']'"),
        PredicateParseError("name ==[] 'a'", .invalidPredicate, at: 8, "comparison options"),
        PredicateParseError("price == 99999999999999999999", .invalidPredicate, at: 9, "does not fit in 64 bits"),
        PredicateParseError("price == -9223372036854775809", .invalidPredicate, at: 9, "does not fit in 64 bits"),
        PredicateParseError("price == 12abc", .invalidPredicate, at: 11, "number cannot be followed"),
        PredicateParseError("name == %x", .invalidPredicate, at: 8, "not a placeholder"),
        PredicateParseError("name == $", .invalidPredicate, at: 8, "variable name"),
        PredicateParseError("labels.@ > 1", .invalidPredicate, at: 7, "collection operator"),
        PredicateParseError("price BETWEEN {1}", .invalidPredicate, at: 14, "two bounds"),
        PredicateParseError("price BETWEEN %@", args: [[1, 2, 3]], .invalidPredicate, at: 14, "two bounds"),
        PredicateParseError("price BETWEEN 5", .invalidPredicate, at: 14, "two bounds"),
        PredicateParseError("name MATCHES '('", .invalidPredicate, at: 13, "regular expression"),
        PredicateParseError("name MATCHES[c] 'a)(b'", .invalidPredicate, at: 16, "regular expression"),
        PredicateParseError("ANY", .invalidPredicate, at: 3, "expected a value or key path"),
        PredicateParseError("name == ANY", .invalidPredicate, at: 8, "must come first"),
        PredicateParseError("name IN", .invalidPredicate, at: 7, "after 'IN'"),
        PredicateParseError("SUBQUERY(labels, l, l.rank > 1).@count > 0", .invalidPredicate, at: 17, "variable"),
        PredicateParseError("SUBQUERY(labels $l, $l.rank > 1).@count > 0", .invalidPredicate, at: 16, "','"),
        PredicateParseError("1 2", .invalidPredicate, at: 2, "after '1'"),
        PredicateParseError("name.@count.x == 1", .invalidPredicate, at: 12, "@count takes no key path"),
        PredicateParseError("name == 'a' AND (", .invalidPredicate, at: 17, "expected a value or key path"),
        PredicateParseError("name NOT IN {1}", .invalidPredicate, at: 5, "put NOT before it"),
        PredicateParseError("inStock", .invalidPredicate, at: 7, "a key alone is not a predicate"),
        PredicateParseError("name == CAST('x', 'NSUUID')", .invalidPredicate, at: 13, "not a valid NSUUID"),
        PredicateParseError("name == 'a' == 'b'", .invalidPredicate, at: 12, "expected AND, OR"),
        PredicateParseError("# == 1", .invalidPredicate, at: 0, "expected a key after '#'"),
        PredicateParseError("name == \"\\u12\"", .invalidPredicate, at: 9, "four hexadecimal digits"),
        PredicateParseError("basket.size == 1", .invalidPredicate, at: 7, "write #size"),
        PredicateParseError("{1, 2 == price", .invalidPredicate, at: 6, "'}'"),
        PredicateParseError("ärger == 1 ==", .invalidPredicate, at: 11, "expected AND, OR"),
        PredicateParseError(String(repeating: "(", count: 300) + "a == 1", .invalidPredicate, at: 200, "nested"),
    ]

    static let arguments: [PredicateParseError] = [
        PredicateParseError("name == %@", .invalidPredicate, at: 8, "no argument"),
        PredicateParseError("name == %@ OR name == %@", args: ["a"], .invalidPredicate, at: 22, "no argument"),
        PredicateParseError(
            "name == %@", args: ["a", "b"], .invalidPredicate, at: 10,
            "2 arguments given, but the format has 1 placeholder"),
        PredicateParseError(
            "TRUEPREDICATE", args: [1], .invalidPredicate, at: 13, "1 argument given, but the format has 0 placeholders"
        ),
        PredicateParseError("price == %d", args: ["abc"], .invalidPredicate, at: 9, "not an integer"),
        PredicateParseError("price == %d", args: [1.5], .invalidPredicate, at: 9, "not an integer"),
        PredicateParseError("price == %f", args: ["abc"], .invalidPredicate, at: 9, "not a number"),
        PredicateParseError("%K == 1", args: [5], .invalidPredicate, at: 0, "%K takes a key path"),
        PredicateParseError("%K == 1", args: ["a..b"], .invalidPredicate, at: 0, "empty component"),
        PredicateParseError("name == %@", args: [["a": 1]], .invalidPredicate, at: 8, "dictionary"),
        PredicateParseError("price == %@", args: [UInt64.max], .invalidPredicate, at: 9, "64 bits"),
        PredicateParseError("name == %@", args: [OpaqueValue()], .invalidPredicate, at: 8, "cannot be used"),
    ]

    static let unsupported: [PredicateParseError] = [
        PredicateParseError("CAST('1', 'NSFoo') == 1", .unsupportedPredicate, at: 10, "CAST to 'NSFoo'"),
        PredicateParseError("foo(price) == 1", .unsupportedPredicate, at: 0, "function 'foo'"),
        PredicateParseError("CAST(price, 'NSUUID') == '1'", .unsupportedPredicate, at: 12, "CAST of a computed value"),
        PredicateParseError("FIRST == 1", .unsupportedPredicate, at: 0, "FIRST"),
        PredicateParseError("LAST == 1", .unsupportedPredicate, at: 0, "LAST"),
        PredicateParseError(
            "labels.@distinctUnionOfObjects.text == 'a'", .unsupportedPredicate, at: 7, "'@distinctUnionOfObjects'"),
        PredicateParseError("name == %1$@", args: ["a"], .unsupportedPredicate, at: 8, "Positional placeholders"),
        PredicateParseError("price := 1", .unsupportedPredicate, at: 6, "Assignment"),
        PredicateParseError(
            "SUBQUERY(labels, $l, $l.rank > 1).text == 'a'", .unsupportedPredicate, at: 34, "key path after"),
    ]
}

/// A predicate that parses but does not fit the fixture's `Product` entity.
struct PredicateCompileError: Sendable, CustomTestStringConvertible {
    let format: String
    let args: @Sendable (PredicateFixture) -> [Any?]
    let code: PersistenceError.Code
    let key: String?
    let entity: String

    init(_ format: String, _ code: PersistenceError.Code, key: String?, entity: String = "Product") {
        self.init(format, { _ in [] }, code, key: key, entity: entity)
    }

    init(
        _ format: String, _ args: @escaping @Sendable (PredicateFixture) -> [Any?], _ code: PersistenceError.Code,
        key: String?, entity: String = "Product"
    ) {
        self.format = format
        self.args = args
        self.code = code
        self.key = key
        self.entity = entity
    }

    var testDescription: String { format }

    static let all: [PredicateCompileError] = [
        PredicateCompileError("nme == 'a'", .unknownKey, key: "nme"),
        PredicateCompileError("shelf.titel == 'a'", .unknownKey, key: "shelf.titel", entity: "Shelf"),
        PredicateCompileError("name == 1", .typeMismatch, key: "name"),
        PredicateCompileError("price == 'a'", .typeMismatch, key: "price"),
        PredicateCompileError("price BEGINSWITH 'a'", .typeMismatch, key: "price"),
        PredicateCompileError("name BEGINSWITH 5", .typeMismatch, key: "name"),
        PredicateCompileError("added > 5", .typeMismatch, key: "added"),
        PredicateCompileError("code == 'abc'", .typeMismatch, key: "code"),
        PredicateCompileError("code < %@", { _ in [PredicateFixtureData.uuid1] }, .typeMismatch, key: "code"),
        PredicateCompileError("link LIKE 'x'", .typeMismatch, key: "link"),
        PredicateCompileError("name.count == 1", .invalidPredicate, key: "name.count"),
        PredicateCompileError("price.length == 1", .invalidPredicate, key: "price.length"),
        // Arithmetic, functions and index expressions check their operands' types.
        PredicateCompileError("name + 1 > 2", .typeMismatch, key: "name"),
        PredicateCompileError("price * 'a' > 2", .typeMismatch, key: "\"a\""),
        PredicateCompileError("(name & 4) == 4", .typeMismatch, key: "name"),
        PredicateCompileError("uppercase:(price) == 'A'", .typeMismatch, key: "price"),
        PredicateCompileError("sum:(price) > 1", .typeMismatch, key: "price"),
        PredicateCompileError("average:(labels.text) > 1", .typeMismatch, key: "labels.text"),
        PredicateCompileError("abs:(labels.rank) > 1", .typeMismatch, key: "labels.rank"),
        PredicateCompileError("price[FIRST] == 1", .typeMismatch, key: "price"),
        PredicateCompileError("labels[name] == nil", .typeMismatch, key: "name"),
        PredicateCompileError("added - name > 1", .typeMismatch, key: "name"),
        PredicateCompileError("name == now()", .typeMismatch, key: "name"),
        PredicateCompileError("ANY name == 'a'", .typeMismatch, key: "name"),
        PredicateCompileError("name.@count == 1", .typeMismatch, key: "name"),
        PredicateCompileError("labels.@sum.text > 1", .typeMismatch, key: "labels.@sum.text"),
        PredicateCompileError("SUBQUERY(name, $x, $x == 'a').@count > 0", .typeMismatch, key: "name"),
        PredicateCompileError("shelf == %@", { [$0.label("red")] }, .typeMismatch, key: "shelf"),
        PredicateCompileError("price == $P", .invalidPredicate, key: nil),
        PredicateCompileError("name IN 5", .typeMismatch, key: "name"),
        PredicateCompileError("price BETWEEN %@", { _ in [["a", "b"]] }, .typeMismatch, key: "price"),
        PredicateCompileError("name == price", .typeMismatch, key: "name"),
        PredicateCompileError("price > labels", .typeMismatch, key: "labels"),
    ]
}

/// A value of a type predicates do not know.
struct OpaqueValue: Sendable {}

@Suite struct PredicateErrorTests {
    @Test func tableCoversAtLeast40Errors() {
        let count =
            PredicateParseError.syntax.count + PredicateParseError.arguments.count
            + PredicateParseError.unsupported.count + PredicateCompileError.all.count
        #expect(count >= 40)
    }

    @Test(arguments: PredicateParseError.syntax + PredicateParseError.arguments + PredicateParseError.unsupported)
    func malformedFormatsFailWithCodeAndPosition(_ row: PredicateParseError) {
        let error = #expect(throws: PersistenceError.self) {
            try FetchPredicate(format: row.format, argumentArray: row.args.map { $0 })
        }
        #expect(error?.code == row.code)
        #expect(error?.position == row.position)
        #expect(error?.message.contains(row.mentions) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("position \(row.position)") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: PredicateCompileError.all)
    func predicatesThatDoNotFitTheEntityFailWhenFetched(_ row: PredicateCompileError) throws {
        let fixture = try PredicateFixture()
        let predicate = try FetchPredicate(format: row.format, argumentArray: row.args(fixture))
        let error = #expect(throws: PersistenceError.self) {
            try fixture.context.fetch(FetchRequest<Product>(predicate: predicate))
        }
        #expect(error?.code == row.code, "\(error?.message ?? "")")
        #expect(error?.entityName == (row.code == .invalidPredicate && row.key == nil ? nil : row.entity))
        if let key = row.key { #expect(error?.key == key, "\(error?.message ?? "")") }
        let counting = #expect(throws: PersistenceError.self) {
            try fixture.context.count(for: FetchRequest<Product>(predicate: predicate))
        }
        #expect(counting?.code == row.code)
    }

    @Test func positionsCountCharactersNotBytes() {
        let error = #expect(throws: PersistenceError.self) { try FetchPredicate(format: "名前 == 'りんご' 値") }
        #expect(error?.position == 12)
        let decomposed = #expect(throws: PersistenceError.self) {
            try FetchPredicate(format: "name == 'e\u{301}' %")
        }
        #expect(decomposed?.position == 12)
    }

    @Test func missingSubstitutionVariablesAreErrors() throws {
        let template = try FetchPredicate(format: "price > $LIMIT")
        let missing = #expect(throws: PersistenceError.self) { try template.withSubstitutionVariables([:]) }
        #expect(missing?.code == .invalidPredicate)
        #expect(missing?.message.contains("$LIMIT") == true)
        let unusable = #expect(throws: PersistenceError.self) {
            try template.withSubstitutionVariables(["LIMIT": NSObject()])
        }
        #expect(unusable?.code == .invalidPredicate)
    }

    @Test func invalidPatternsFromVariablesFailWhenFetched() throws {
        let fixture = try PredicateFixture()
        let predicate = try FetchPredicate(format: "name MATCHES $P").withSubstitutionVariables(["P": "("])
        let error = #expect(throws: PersistenceError.self) {
            try fixture.context.fetch(FetchRequest<Product>(predicate: predicate))
        }
        #expect(error?.code == .invalidPredicate)
        #expect(error?.key == "name")
    }

    @Test func errorMessagesNameTheKeyAndEntityButNoValues() throws {
        let fixture = try PredicateFixture()
        let predicate = try FetchPredicate(format: "price == %@", "secret-value")
        let error = #expect(throws: PersistenceError.self) {
            try fixture.context.fetch(FetchRequest<Product>(predicate: predicate))
        }
        #expect(error?.message.contains("Product") == true)
        #expect(error?.message.contains("price") == true)
        #expect(error?.message.contains("secret-value") == false)
    }
}

@Suite struct PredicateNestingTests {
    @Test func deeplyNestedOperandsAreASyntaxErrorNotACrash() {
        let parentheses =
            "price == " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        let lists = "price IN " + String(repeating: "{", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        for format in [parentheses, lists] {
            let error = #expect(throws: PersistenceError.self) { try FetchPredicate(format: format) }
            #expect(error?.message.contains("nested more than") == true)
        }
    }
}
