import Foundation
import ObjectGraph
import Testing

/// One row of the Swift predicate table: a `#Predicate`, the format predicate that selects the
/// same products, and the format the `#Predicate` converts to (`nil` when it is evaluated in
/// Swift).
struct SwiftPredicateCase: Sendable, CustomTestStringConvertible {
    let label: String
    let predicate: Predicate<Product>
    let format: String
    let arguments: [any Sendable]
    /// The converted predicate's description; for a predicate evaluated in Swift, its description
    /// with `#Predicate<Product>` standing for the Swift part.
    let printed: String
    let converts: Bool

    init(
        _ label: String, _ predicate: Predicate<Product>, _ format: String, _ arguments: any Sendable...,
        converts printed: String
    ) {
        self.label = label
        self.predicate = predicate
        self.format = format
        self.arguments = arguments
        self.printed = printed
        self.converts = true
    }

    init(
        _ label: String, _ predicate: Predicate<Product>, _ format: String, _ arguments: any Sendable...,
        fallsBack printed: String = "#Predicate<Product>"
    ) {
        self.label = label
        self.predicate = predicate
        self.format = format
        self.arguments = arguments
        self.printed = printed
        self.converts = false
    }

    var testDescription: String { label }

    var formatPredicate: FetchPredicate {
        get throws { try FetchPredicate(format: format, argumentArray: arguments.map { $0 }) }
    }
}

extension SwiftPredicateCase {
    static let uuid1 = PredicateFixtureData.uuid1
    static let appleURL = PredicateFixtureData.appleURL
    static let names = ["apple", "banana", "nope"]
    static let noPrices: [Int64] = []
    static let decimal = Decimal(string: "1.5", locale: Locale(identifier: "en_US_POSIX"))!
    static let date = Date(timeIntervalSinceReferenceDate: 5000)
    static let limit: Int64 = 150
    static let blob = Data([1, 2])
    static let precomposed = "\u{E9}clair"

    static let converted: [SwiftPredicateCase] = {
        typealias Case = SwiftPredicateCase
        let uuid1 = Case.uuid1, appleURL = Case.appleURL, names = Case.names, noPrices = Case.noPrices
        let decimal = Case.decimal, date = Case.date, limit = Case.limit, blob = Case.blob
        let precomposed = Case.precomposed
        return [
            .init("greater", #Predicate { $0.price > 100 }, "price > 100", converts: "price > 100"),
            .init("greater or equal", #Predicate { $0.price >= 150 }, "price >= 150", converts: "price >= 150"),
            .init("less", #Predicate { $0.price < 100 }, "price < 100", converts: "price < 100"),
            .init("less or equal", #Predicate { $0.price <= 100 }, "price <= 100", converts: "price <= 100"),
            .init("equal", #Predicate { $0.price == 150 }, "price == 150", converts: "price == 150"),
            .init("not equal", #Predicate { $0.price != 150 }, "price != 150", converts: "price != 150"),
            .init("value on the left", #Predicate { 100 < $0.price }, "price > 100", converts: "100 < price"),
            .init("captured value", #Predicate { $0.price >= limit }, "price >= 150", converts: "price >= 150"),
            .init(
                "key with key", #Predicate { $0.shelf?.floor == $0.optionalPrice }, "shelf.floor == optionalPrice",
                converts: "shelf.floor == optionalPrice"),
            .init("string equal", #Predicate { $0.name == "apple" }, "name == 'apple'", converts: #"name == "apple""#),
            .init(
                "string equal, canonically equivalent", #Predicate { $0.name == precomposed }, "name == %@",
                precomposed, converts: "name == \"\(precomposed)\""),
            .init(
                "string not equal", #Predicate { $0.name != "café" }, "name != 'café'",
                converts: #"name != "café""#),
            .init("string ordering", #Predicate { $0.name < "b" }, "name < 'b'", converts: #"name < "b""#),
            .init("Bool key", #Predicate { $0.inStock }, "inStock == YES", converts: "inStock == YES"),
            .init("negated Bool key", #Predicate { !$0.inStock }, "inStock == NO", converts: "NOT inStock == YES"),
            .init("Bool equal", #Predicate { $0.inStock == false }, "inStock == NO", converts: "inStock == NO"),
            .init(
                "and", #Predicate { $0.price > 100 && $0.inStock }, "price > 100 AND inStock == YES",
                converts: "price > 100 AND inStock == YES"),
            .init(
                "or", #Predicate { $0.price < 90 || $0.price > 250 }, "price < 90 OR price > 250",
                converts: "price < 90 OR price > 250"),
            .init(
                "not and", #Predicate { !($0.price > 100 && $0.inStock) }, "NOT (price > 100 AND inStock == YES)",
                converts: "NOT (price > 100 AND inStock == YES)"),
            .init(
                "and of ors", #Predicate { ($0.price < 90 || $0.price > 250) && ($0.inStock || $0.small > 10) },
                "(price < 90 OR price > 250) AND (inStock == YES OR small > 10)",
                converts: "(price < 90 OR price > 250) AND (inStock == YES OR small > 10)"),
            .init(
                "IN", #Predicate { names.contains($0.name) }, "name IN %@", names,
                converts: #"name IN {"apple", "banana", "nope"}"#),
            .init(
                "IN nothing", #Predicate { noPrices.contains($0.price) }, "FALSEPREDICATE",
                converts: "price IN {}"),
            .init(
                "CONTAINS", #Predicate { $0.name.contains("an") }, "name CONTAINS 'an'",
                converts: #"name CONTAINS "an""#),
            .init(
                "CONTAINS non-ASCII", #Predicate { $0.name.contains("é") }, "name CONTAINS 'é'",
                converts: #"name CONTAINS "é""#),
            .init(
                "CONTAINS nothing", #Predicate { $0.name.contains("") }, "TRUEPREDICATE",
                converts: #"name CONTAINS """#),
            .init(
                "optional string not equal", #Predicate { $0.note != "CAFE" }, "note != 'CAFE'",
                converts: #"note != "CAFE""#),
            .init(
                "BEGINSWITH", #Predicate { $0.name.starts(with: "a") }, "name BEGINSWITH 'a'",
                converts: #"name BEGINSWITH "a""#),
            .init(
                "BEGINSWITH nothing", #Predicate { $0.name.starts(with: "") }, "TRUEPREDICATE",
                converts: #"name BEGINSWITH """#),
            .init("== nil", #Predicate { $0.note == nil }, "note == nil", converts: "note == nil"),
            .init("!= nil", #Predicate { $0.note != nil }, "note != nil", converts: "note != nil"),
            .init(
                "optional equal", #Predicate { $0.optionalPrice == 0 }, "optionalPrice == 0",
                converts: "optionalPrice == 0"),
            .init(
                "optional not equal", #Predicate { $0.optionalPrice != 5 }, "optionalPrice != 5",
                converts: "optionalPrice != 5"),
            .init(
                "UUID", #Predicate { $0.code == uuid1 }, "code == %@", uuid1,
                converts: "code == \(PredicateValue.uuid(uuid1))"),
            .init(
                "URL", #Predicate { $0.link == appleURL }, "link == %@", appleURL,
                converts: "link == \(PredicateValue.url(appleURL))"),
            .init(
                "Data", #Predicate { $0.blob == blob }, "blob == %@", blob,
                converts: "blob == \(PredicateValue.data(blob))"),
            .init(
                "to-one", #Predicate { $0.shelf?.title == "Top" }, "shelf.title == 'Top'",
                converts: #"shelf.title == "Top""#),
            .init(
                "to-one to-one", #Predicate { $0.shelf?.shop?.city == "Paris" }, "shelf.shop.city == 'Paris'",
                converts: #"shelf.shop.city == "Paris""#),
            .init(
                "to-one != value", #Predicate { $0.shelf?.title != "Top" }, "shelf.title != 'Top'",
                converts: #"shelf.title != "Top""#),
            .init("to-one == nil", #Predicate { $0.shelf == nil }, "shelf == nil", converts: "shelf == nil"),
            .init("Double with NaN", #Predicate { $0.weight > 1.0 }, "weight > 1.0", converts: "weight > 1.0"),
            .init("Double != with NaN", #Predicate { $0.weight != 1.0 }, "weight != 1.0", converts: "weight != 1.0"),
            .init("Float", #Predicate { $0.ratio > 0.125 }, "ratio > 0.125", converts: "ratio > 0.125"),
            .init("Int16", #Predicate { $0.small > 5 }, "small > 5", converts: "small > 5"),
            .init(
                "Decimal", #Predicate { $0.cost >= decimal }, "cost >= %@", decimal,
                converts: "cost >= \(PredicateValue.decimal(decimal))"),
            .init(
                "Date", #Predicate { $0.added > date }, "added > %@", date,
                converts: "added > \(PredicateValue.date(date))"),
            .init(
                "closed range", #Predicate { (100...200).contains($0.price) }, "price BETWEEN {100, 200}",
                converts: "price BETWEEN {100, 200}"),
            .init(
                "half-open range", #Predicate { (100..<200).contains($0.price) }, "price >= 100 AND price < 200",
                converts: "price >= 100 AND price < 200"),
        ]
    }()

    static let fallingBack: [SwiftPredicateCase] = [
        .init("nil coalescing", #Predicate { ($0.optionalPrice ?? 0) > 3 }, "optionalPrice > 3"),
        .init("flatMap closure", #Predicate { $0.shelf.flatMap { $0.floor > 0 } ?? false }, "shelf.floor > 0"),
        .init(
            "string count", #Predicate { $0.name.count > 5 }, "name IN %@",
            PredicateFixtureData.names.filter { $0.count > 5 }),
        .init("isEmpty", #Predicate { $0.name.isEmpty }, "name == ''"),
        .init("to-many count", #Predicate { $0.labels.count > 1 }, "labels.@count > 1"),
        .init(
            "to-many contains(where:)", #Predicate { $0.labels.contains { $0.text == "red" } },
            "ANY labels.text == 'red'"),
        .init(
            "conditional", #Predicate { $0.inStock ? $0.price > 100 : $0.price < 100 },
            "(inStock == YES AND price > 100) OR (inStock == NO AND price < 100)"),
        .init(
            "partly convertible and", #Predicate { $0.price > 100 && $0.name.count > 4 },
            "price > 100 AND name IN %@", PredicateFixtureData.names.filter { $0.count > 4 },
            fallsBack: "price > 100 AND #Predicate<Product>"),
        .init(
            "forced unwrap after a nil check", #Predicate { $0.note != nil && $0.note! == "CAFE" },
            "note == 'CAFE'", fallsBack: "note != nil AND #Predicate<Product>"),
        .init(
            "three conjuncts, middle unconvertible",
            #Predicate { $0.inStock && $0.name.count > 4 && $0.price < 200 },
            "inStock == YES AND name IN %@ AND price < 200", PredicateFixtureData.names.filter { $0.count > 4 },
            fallsBack: "inStock == YES AND price < 200 AND #Predicate<Product>"),
        .init(
            "negated unconvertible", #Predicate { !($0.name.count > 4) }, "NOT name IN %@",
            PredicateFixtureData.names.filter { $0.count > 4 }),
        .init(
            "or with unconvertible", #Predicate { $0.name.count > 5 || $0.price == 0 }, "name IN %@ OR price == 0",
            PredicateFixtureData.names.filter { $0.count > 5 }),
    ]

    /// Arithmetic and conditionals, which convert to the format language's functions (values
    /// chosen so that Swift's own evaluation never overflows).
    static let arithmetic: [SwiftPredicateCase] = [
        .init("arithmetic", #Predicate { $0.weight * 2 > 3 }, "weight > 1.5", converts: "weight * 2.0 > 3.0"),
        .init("addition", #Predicate { $0.weight + 1 > 2 }, "weight > 1", converts: "weight + 1.0 > 2.0"),
        .init("subtraction", #Predicate { $0.weight - 1 < -2 }, "weight < -1", converts: "weight - 1.0 < -2.0"),
        .init("unary minus", #Predicate { -$0.weight > 1 }, "weight < -1", converts: "-weight > 1.0"),
        .init("float division", #Predicate { $0.weight / 2 > 1 }, "weight > 2", converts: "weight / 2.0 > 1.0"),
        .init(
            "remainder", #Predicate { $0.price % 50 == 0 }, "price IN {0, 100, 150, 200, 250, 300}",
            converts: "modulus:by:(price, 50) == 0"),
        .init(
            "Int16 remainder", #Predicate { $0.small % 5 == 1 }, "small IN {1, 6, 11}",
            converts: "modulus:by:(small, 5) == 1"),
        .init(
            "conditional value", #Predicate { ($0.inStock ? $0.weight : 0) > 1 }, "inStock == YES AND weight > 1",
            converts: "TERNARY(inStock == YES, weight, 0.0) > 1.0"),
        .init(
            "three conjuncts with arithmetic", #Predicate { $0.inStock && $0.weight * 2 > 1 && $0.price < 200 },
            "inStock == YES AND weight > 0.5 AND price < 200",
            converts: "inStock == YES AND weight * 2.0 > 1.0 AND price < 200"),
    ]

    static let all = converted + arithmetic + fallingBack
}
