import Foundation
import ObjectGraph

extension PredicateCase {
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }
    static func decimal(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

    // MARK: - Numbers

    // Numbers compare by value across integer, floating-point and decimal kinds.
    static let numbers: [PredicateCase] = [
        PredicateCase("price == 100", ["apple"]),
        PredicateCase("price > 200", ["Apple Pie", "max", "straße"]),
        PredicateCase("price >= 200", ["Apple Pie", "Ärger", "max", "straße"]),
        PredicateCase("price < 100", ["banana", "", "min", "nan", "emoji 🍎"]),
        PredicateCase("price <= 100", ["apple", "banana", "", "min", "nan", "emoji 🍎"]),
        PredicateCase("price =< 100", ["apple", "banana", "", "min", "nan", "emoji 🍎"]),
        PredicateCase("price => 200", ["Apple Pie", "Ärger", "max", "straße"]),
        PredicateCase("price != 150", except("café", "CAFE")),
        PredicateCase("100 < price", ["Apple Pie", "Ärger", "café", "CAFE", "りんご", "max", "straße", "e\u{301}clair"]),
        // BETWEEN: "The left-hand expression is between, or equal to either of, the values
        // specified in the right-hand side" (Predicate Format String Syntax).
        PredicateCase("price BETWEEN {100, 150}", ["apple", "café", "CAFE", "りんご"]),
        PredicateCase("price BETWEEN %@", args: [[100, 150]], ["apple", "café", "CAFE", "りんご"]),
        PredicateCase("price between {150, 100}", []),
        // IN: "the left-hand side must appear in the collection specified by the right-hand side".
        PredicateCase("price IN {80, 99, 300}", ["banana", "straße", "emoji 🍎"]),
        PredicateCase("price IN %@", args: [Set([80, 300])], ["banana", "straße"]),
        // IN an empty collection is false.
        PredicateCase("price IN {}", []),
        PredicateCase("price IN %@", args: [[Int]()], []),
        PredicateCase("NOT price IN {}", everything),
        PredicateCase("price == %d", args: [250], ["Apple Pie"]),
        PredicateCase("price == %i", args: [250], ["Apple Pie"]),
        PredicateCase("price == %lld", args: [Int64.max], ["max"]),
        PredicateCase("price == %ld", args: [Int64.min], ["min"]),
        PredicateCase("price == 9223372036854775807", ["max"]),
        PredicateCase("price == -9223372036854775808", ["min"]),
        PredicateCase("price < -9223372036854775807", ["min"]),
        PredicateCase("price > 9223372036854775806", ["max"]),
        PredicateCase("price == 0x64", ["apple"]),
        PredicateCase("price == 100.0", ["apple"]),
        PredicateCase(
            "price > 99.5", ["apple", "Apple Pie", "Ärger", "café", "CAFE", "りんご", "max", "straße", "e\u{301}clair"]),
        PredicateCase("price == 99.5", []),
        PredicateCase("price < %f", args: [99.5], ["banana", "", "min", "nan", "emoji 🍎"]),
        PredicateCase("price > 9.3e18", []),
        PredicateCase("price < -9.3e18", []),
        // 9223372036854775807.0 rounds to 2^63, which is greater than Int64.max: compared exactly.
        PredicateCase("price >= 9.223372036854775807e18", []),
        PredicateCase("price == %@", args: [decimal("100")], ["apple"]),
        PredicateCase("price > %@", args: [decimal("199.5")], ["Apple Pie", "Ärger", "max", "straße"]),
        PredicateCase("price == YES", ["nan"]),
        PredicateCase("price == %@", args: [Int32(100)], ["apple"]),
        PredicateCase("price == %@", args: [UInt8(80)], ["banana"]),
        PredicateCase("price IN {100, 80.0, 1.5}", ["apple", "banana"]),
        PredicateCase("small == 32767", ["max"]),
        PredicateCase("small == -32768", ["min"]),
        PredicateCase("small BETWEEN {1, 3}", ["apple", "Apple Pie", "banana"]),
        PredicateCase("weight == 1", ["café", "CAFE"]),
        PredicateCase("weight > 1.5", ["Ärger", "max", "straße"]),
        PredicateCase("weight < 0", ["min"]),
        // NaN is unordered: it is != every number and equals none, itself included.
        PredicateCase("weight != 1", except("café", "CAFE")),
        PredicateCase("weight == %@", args: [Double.nan], []),
        PredicateCase("weight != %@", args: [Double.nan], everything),
        PredicateCase("weight BETWEEN {0.2, 0.5}", ["apple", "banana", "りんご"]),
        PredicateCase("weight > 0.99", ["Apple Pie", "Ärger", "café", "CAFE", "max", "straße"]),
        PredicateCase(
            "weight >= %f", args: [0.99], ["Apple Pie", "Ärger", "café", "CAFE", "max", "straße", "emoji 🍎"]),
        PredicateCase("weight IN {0.5, 2}", ["apple", "Ärger"]),
        PredicateCase("weight > 1e307", ["max"]),
        PredicateCase("weight < %@", args: [-Double.infinity], []),
        PredicateCase("weight < %@", args: [Double.infinity], except("nan")),
        PredicateCase("ratio == 0.25", ["apple"]),
        PredicateCase("ratio == %@", args: [Float(0.25)], ["apple"]),
        PredicateCase("cost == 1.5", ["café", "CAFE"]),
        PredicateCase("cost == %@", args: [decimal("1.10")], ["apple"]),
        PredicateCase("cost > 2", ["Apple Pie", "straße"]),
        PredicateCase("cost >= 2", ["Apple Pie", "Ärger", "straße"]),
        PredicateCase("cost BETWEEN {1, 2}", ["apple", "Ärger", "café", "CAFE", "りんご", "e\u{301}clair"]),
        PredicateCase("cost < 0.99", ["banana", "", "max", "min", "nan"]),
        PredicateCase("cost == CAST(\"0.99\", \"NSDecimalNumber\")", ["emoji 🍎"]),
        PredicateCase("cost IN %@", args: [[decimal("2"), decimal("3")]], ["Ärger", "straße"]),
        PredicateCase("optionalPrice == nil", except("apple", "banana", "りんご")),
        PredicateCase("optionalPrice > 0", ["apple", "りんご"]),
        PredicateCase("optionalPrice < 10", ["apple", "banana"]),
        // Comparing nil with < or > is false, so the negation matches nil.
        PredicateCase("NOT (optionalPrice < 10)", except("apple", "banana")),
        PredicateCase("optionalPrice > nil", []),
    ]

    // MARK: - Bool, dates, UUID, URL, data

    static let otherKinds: [PredicateCase] = [
        PredicateCase("inStock == YES", inStock),
        PredicateCase("inStock == TRUE", inStock),
        PredicateCase("inStock == true", inStock),
        PredicateCase("inStock = NO", notInStock),
        PredicateCase("inStock == FALSE", notInStock),
        PredicateCase("inStock == %@", args: [true], inStock),
        PredicateCase("inStock == 1", inStock),
        PredicateCase("inStock != YES", notInStock),
        PredicateCase(
            "added > %@", args: [date(5000)], ["CAFE", "りんご", "max", "nan", "straße", "e\u{301}clair", "emoji 🍎"]),
        PredicateCase("added BETWEEN %@", args: [[date(1000), date(3000)]], ["apple", "Apple Pie", "banana"]),
        PredicateCase("added < CAST(0, \"NSDate\")", ["min"]),
        PredicateCase("added == CAST(1000.0, 'NSDate')", ["apple"]),
        PredicateCase("added IN %@", args: [[date(2000), date(7000)]], ["Apple Pie", "りんご"]),
        PredicateCase("added <= %@", args: [date(0)], ["", "min"]),
        PredicateCase("code == %@", args: [PredicateFixtureData.uuid1], ["apple"]),
        PredicateCase("code == nil", except("apple", "banana")),
        PredicateCase(
            "code IN %@", args: [[PredicateFixtureData.uuid1, PredicateFixtureData.uuid2]], ["apple", "banana"]),
        PredicateCase("code != %@", args: [PredicateFixtureData.uuid1], except("apple")),
        PredicateCase(
            "code == CAST(\"00000000-0000-0000-0000-000000000002\", \"NSUUID\")", ["banana"]),
        PredicateCase("link == %@", args: [PredicateFixtureData.appleURL], ["apple"]),
        PredicateCase("link == CAST('https://a.example/apple', 'NSURL')", ["apple"]),
        PredicateCase("blob == %@", args: [Data([1, 2])], ["apple"]),
        PredicateCase("blob == CAST('AQI=', 'NSData')", ["apple"]),
        PredicateCase("blob != nil", ["apple"]),
    ]

    // MARK: - AND, OR, NOT, constants, variables

    static let logic: [PredicateCase] = [
        PredicateCase("price > 100 AND inStock == YES", ["café", "りんご", "straße", "e\u{301}clair"]),
        PredicateCase("price > 100 && inStock == YES", ["café", "りんご", "straße", "e\u{301}clair"]),
        PredicateCase("price < 90 OR price > 250", ["banana", "", "max", "min", "nan", "straße"]),
        PredicateCase("price < 90 || price > 250", ["banana", "", "max", "min", "nan", "straße"]),
        PredicateCase("NOT inStock == YES", notInStock),
        PredicateCase("!(inStock == YES)", notInStock),
        // AND binds more tightly than OR.
        PredicateCase("name BEGINSWITH 'a' OR name BEGINSWITH 'b' AND price > 100", ["apple"]),
        PredicateCase("(name BEGINSWITH 'a' OR name BEGINSWITH 'b') AND price > 90", ["apple"]),
        PredicateCase("NOT (price > 100 OR inStock == NO)", ["apple", "banana", "emoji 🍎"]),
        // "TRUEPREDICATE: A predicate that always evaluates to TRUE"; FALSEPREDICATE likewise.
        PredicateCase("TRUEPREDICATE", everything),
        PredicateCase("FALSEPREDICATE", []),
        PredicateCase("truepredicate AND name == 'apple'", ["apple"]),
        PredicateCase("name == 'apple' or name == 'banana'", ["apple", "banana"]),
        PredicateCase("NOT NOT name == 'apple'", ["apple"]),
        PredicateCase("name == 'apple' AND NOT FALSEPREDICATE", ["apple"]),
        PredicateCase("((((name == 'apple'))))", ["apple"]),
        PredicateCase("name == 'apple' OR FALSEPREDICATE OR name == 'nan'", ["apple", "nan"]),
        PredicateCase(
            "price BETWEEN {$LOW, $HIGH}", variables: { _ in ["LOW": 100, "HIGH": 150] },
            ["apple", "café", "CAFE", "りんご"]),
        PredicateCase("name == $NAME", variables: { _ in ["NAME": "banana"] }, ["banana"]),
        PredicateCase("name IN $NAMES", variables: { _ in ["NAMES": ["apple", "CAFE"]] }, ["apple", "CAFE"]),
        PredicateCase("shelf == $SHELF", variables: { _ in ["SHELF": nil] }, noShelf),
        PredicateCase("shelf == $SHELF", variables: { ["SHELF": $0.shelf("Side")] }, ["りんご"]),
        PredicateCase("%K BEGINSWITH %@", args: ["name", "ba"], ["banana"]),
        PredicateCase("%K == %@", args: ["shelf.title", "Side"], ["りんご"]),
        PredicateCase("%K.@count == 2", args: ["labels"], ["apple", "banana"]),
        PredicateCase("%K == %d", args: ["labels.@count", 2], ["apple", "banana"]),
        PredicateCase("#name == 'apple'", ["apple"]),
        PredicateCase("SELF.name == 'apple'", ["apple"]),
    ]
}
