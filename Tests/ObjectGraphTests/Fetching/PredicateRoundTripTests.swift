import Foundation
import ObjectGraph
import Testing

@Suite struct PredicateRoundTripTests {
    // MARK: - Printing

    @Test(arguments: PredicateCase.all)
    func parsingThePrintedFormGivesTheSameTree(_ row: PredicateCase) throws {
        let fixture = try PredicateFixture(save: false)
        let predicate = try row.predicate(in: fixture)
        let printed = predicate.description
        let reparsed = try FetchPredicate(format: printed)
        #expect(reparsed == predicate, "\(printed)")
        #expect(reparsed.description == printed)
    }

    @Test(arguments: PredicateCase.all)
    func encodingAndDecodingGivesTheSamePredicate(_ row: PredicateCase) throws {
        let fixture = try PredicateFixture(save: false)
        let predicate = try row.predicate(in: fixture)
        let data = try JSONEncoder().encode(predicate)
        #expect(try JSONDecoder().decode(FetchPredicate.self, from: data) == predicate)
    }

    @Test func printsCanonicalFormatSyntax() throws {
        let examples: [(String, String)] = [
            ("name = 'apple'", "name == \"apple\""),
            ("price <> 1 AND price =< 2 AND price => 0", "price != 1 AND price <= 2 AND price >= 0"),
            ("a == 1 || b == 2 && c == 3", "a == 1 OR b == 2 AND c == 3"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
            ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
            ("!a == 1", "NOT a == 1"),
            ("SOME tags.title ==[cd] 'x'", "ANY tags.title ==[cd] \"x\""),
            ("NONE tags.title == 'x'", "NOT ANY tags.title == \"x\""),
            ("flag == yes AND other == No AND x == NULL", "flag == YES AND other == NO AND x == nil"),
            ("SELF.name == $N", "name == $N"),
            ("#size == 1 AND #In == 2", "#size == 1 AND #In == 2"),
            ("x IN {1, 2.5, 'a', nil}", "x IN {1, 2.5, \"a\", nil}"),
            ("x == -0.5e-3", "x == -0.0005"),
            ("x == 0x1F", "x == 31"),
            ("SUBQUERY(f, $x, $x.p > 1).@count > 0", "SUBQUERY(f, $x, $x.p > 1).@count > 0"),
            ("fruits.@avg.price < 3", "fruits.@avg.price < 3"),
            ("truepredicate OR falsepredicate", "TRUEPREDICATE OR FALSEPREDICATE"),
            ("name ==[dc] 'É'", "name ==[cd] \"É\""),
            ("x == 'tab\\there'", "x == \"tab\\there\""),
        ]
        for (format, printed) in examples {
            #expect(try FetchPredicate(format: format).description == printed)
        }
    }

    @Test func constantsWithoutLiteralsPrintAsCastsThatParseBack() throws {
        let objectID = ObjectID(entityName: "Shelf", key: 7)
        let values: [Any?] = [
            Date(timeIntervalSinceReferenceDate: 12.5), UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            Data([0, 255, 7]), Decimal(string: "-1.25")!, Double.infinity, -Double.infinity, Double.nan,
            URL(string: "https://example.com/a?b=c")!, objectID, Int64.min, Int64.max, Double.leastNonzeroMagnitude,
            -0.0,
            "quote\" back\\ nl\n bell\u{7} é 🍎", nil, [[1, 2]] as [Any], Decimal.nan,
        ]
        for value in values {
            let predicate = try FetchPredicate(format: "x == %@", value)
            let reparsed = try FetchPredicate(format: predicate.description)
            #expect(reparsed == predicate, "\(predicate)")
        }
        #expect(
            try FetchPredicate(format: "x == %@", Date(timeIntervalSinceReferenceDate: 12.5)).description
                == "x == CAST(12.5, \"NSDate\")")
        #expect(try FetchPredicate(format: "x == %@", objectID).description.contains("\"ObjectID\")"))
    }

    @Test func programmaticTreesPrintAndParse() throws {
        let tree = PredicateExpression.and([
            .comparison(.init(.key("basket.owner.name"), .beginsWith, .constant("a"), options: [.caseInsensitive])),
            .not(.comparison(.init(.key("tags.title"), .in, .constant(["x", "y"]), modifier: .any))),
        ])
        let predicate = FetchPredicate(tree)
        #expect(
            predicate.description == "basket.owner.name BEGINSWITH[c] \"a\" AND NOT ANY tags.title IN {\"x\", \"y\"}")
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func encodesAsReadableTaggedJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(try FetchPredicate(format: "price > 1 AND TRUEPREDICATE"))
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"and\":["))
        #expect(json.contains("\"keyPath\":[\"price\"]"))
        #expect(json.contains("\"rhs\":{\"constant\":{\"int\":1}}"))
        #expect(json.contains("{\"constant\":true}"))
    }

    @Test func decodingRejectsMalformedTrees() {
        let bad = ["{\"and\":5}", "{\"constant\":{\"double\":\"x\"}}", "{}"]
        for text in bad {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(PredicateExpression.self, from: Data(text.utf8))
            }
        }
    }
}
