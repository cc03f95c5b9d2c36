import Foundation
import Testing

@testable import ObjectGraph

/// The functions of `NSExpression`, each against the result its documentation gives, and the
/// decided results where Apple raises or is silent (overflow, division by zero, nil, out of
/// range): never a trap.
@Suite struct PredicateFunctionTests {
    /// The value of a constant expression, computed as a fetch computes it.
    private func value(_ expression: String, _ arguments: Any?...) throws -> PredicateValue {
        let predicate = try FetchPredicate(format: "\(expression) == nil", argumentArray: arguments)
        guard case .comparison(let comparison) = predicate.expression else { throw CancellationError() }
        let info = try #require(PredicateFixtureData.model.info(named: "Product"))
        var compiler = PredicateCompiler(model: PredicateFixtureData.model, entity: info)
        let operand = try compiler.operand(comparison.lhs)
        let scope = PredicateScope(values: [], objectID: nil, variables: [])
        switch operand.getter.evaluate(in: scope, resolver: PredicateResolver { _ in nil }) {
        case .one(let stored): return PredicateValue(stored)
        case .many(let stored): return .array(stored.map { PredicateValue($0) })
        }
    }

    // The table of init(forFunction:arguments:): each function with its documented meaning.
    static let documented: [(String, PredicateValue)] = [
        ("sum:({1, 2, 3, 4})", 10),
        ("count:({1, 2, 3, 4})", 4),
        ("min:({3, 1, 2})", 1),
        ("max:({3, 1, 2})", 3),
        ("average:({1, 2, 3, 4})", 2.5),
        ("median:({5, 1, 3})", 3.0),
        ("median:({4, 1, 3, 2})", 2.5),
        ("mode:({1, 2, 2, 3, 3})", [2, 3]),
        ("stddev:({2, 4, 4, 4, 5, 5, 7, 9})", 2.0),
        ("add:to:(2, 3)", 5),
        ("from:subtract:(2, 3)", -1),
        ("multiply:by:(2, 3)", 6),
        ("divide:by:(7, 2)", 3.5),
        ("modulus:by:(7, 3)", 1),
        ("modulus:by:(-7, 3)", -1),
        ("sqrt:(16)", 4.0),
        ("log:(1000)", 3.0),
        ("ln:(1)", 0.0),
        ("raise:toPower:(2, 10)", 1024.0),
        ("exp:(0)", 1.0),
        ("ceiling:(1.2)", 2.0),
        ("floor:(1.8)", 1.0),
        ("trunc:(-1.7)", -1.0),
        ("abs:(-3)", 3),
        ("abs:(-2.5)", 2.5),
        ("uppercase:('straße')", "STRASSE"),
        ("lowercase:('ÀB')", "àb"),
        ("bitwiseAnd:with:(6, 3)", 2),
        ("bitwiseOr:with:(6, 3)", 7),
        ("bitwiseXor:with:(6, 3)", 5),
        ("leftshift:by:(1, 4)", 16),
        ("rightshift:by:(16, 2)", 4),
        ("onesComplement:(0)", -1),
        ("noindex:(5)", 5),
        ("length:('🍎a')", 3),
        ("random:({7})", 7),
        ("random({7})", 7),
        ("random:({})", nil),
        ("CAST(CAST(5.0, 'NSDate'), 'NSNumber')", 5.0),
        ("CAST('12', 'NSNumber') + 0", 12),
        (
            "castObject:toType:('1.5', 'NSDecimalNumber')",
            .decimal(Decimal(string: "1.5", locale: Locale(identifier: "en_US_POSIX"))!)
        ),
        ("CAST(1 + 1, 'NSString')", "2"),
        // The operators.
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 / 2", 3.5),
        ("2 ** 10", 1024.0),
        ("-(2 + 3)", -5),
        ("6 & 3 | 8", 10),
        ("6 ^ 3", 5),
        ("1 << 4 >> 2", 4),
        ("~5", -6),
        // TERNARY and index expressions.
        ("TERNARY(1 < 2, 'yes', 'no')", "yes"),
        ("TERNARY(1 > 2, 'yes', 'no')", "no"),
        ("{10, 20, 30}[FIRST]", 10),
        ("{10, 20, 30}[LAST]", 30),
        ("{10, 20, 30}[SIZE]", 3),
        ("{10, 20, 30}[1]", 20),
    ]

    @Test func functionsGiveTheirDocumentedResults() throws {
        for (expression, expected) in Self.documented {
            #expect(try value(expression) == expected, "\(expression)")
        }
    }

    @Test func decimalsStayDecimalAndDatesMoveBySeconds() throws {
        let cost = Decimal(string: "1.10", locale: Locale(identifier: "en_US_POSIX"))!
        #expect(
            try value("%@ * 3", cost) == .decimal(Decimal(string: "3.3", locale: Locale(identifier: "en_US_POSIX"))!))
        #expect(
            try value("%@ / 4", Decimal(1))
                == .decimal(Decimal(string: "0.25", locale: Locale(identifier: "en_US_POSIX"))!))
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(try value("%@ + 60", date) == .date(Date(timeIntervalSinceReferenceDate: 1060)))
        #expect(try value("60 + %@", date) == .date(Date(timeIntervalSinceReferenceDate: 1060)))
        #expect(try value("%@ - 60", date) == .date(Date(timeIntervalSinceReferenceDate: 940)))
        #expect(try value("%@ - %@", date, Date(timeIntervalSinceReferenceDate: 400)) == .double(600))
        let now = Date()
        guard case .date(let computed) = try value("now()") else {
            Issue.record("now() is not a date")
            return
        }
        #expect(abs(computed.timeIntervalSince(now)) < 60)
    }

    // Where Apple raises an exception or is silent, the result is decided and never a trap.
    @Test func edgeCasesGiveDecidedResultsNotTraps() throws {
        #expect(try value("%@ + 1", Int64.max) == .double(0x1p63))
        #expect(try value("%@ * 2", Int64.min) == .double(-0x1p64))
        #expect(try value("%@ - 1", Int64.min) == .double(-0x1p63))
        #expect(try value("abs:(%@)", Int64.min) == .double(0x1p63))
        #expect(try value("-%@", Int64.min) == .double(0x1p63))
        #expect(try value("modulus:by:(%@, -1)", Int64.min) == 0)
        #expect(try value("1 / 0") == .double(.infinity))
        #expect(try value("-1 / 0") == .double(-.infinity))
        guard case .double(let nan) = try value("0 / 0"), case .double(let remainder) = try value("modulus:by:(5, 0)")
        else {
            Issue.record("not doubles")
            return
        }
        #expect(nan.isNaN && remainder.isNaN)
        #expect(try value("%@ / 0", Decimal(1)) == .double(.infinity))
        #expect(try value("1 << 64") == 0)
        #expect(try value("-1 >> 70") == -1)
        #expect(try value("1 << -1") == 0)
        #expect(try value("nil + 1") == .null)
        #expect(try value("uppercase:(nil)") == .null)
        #expect(try value("{1, 2}[2]") == .null)
        #expect(try value("{1, 2}[-1]") == .null)
        #expect(try value("{}[FIRST]") == .null)
        #expect(try value("average:({})") == .null)
        #expect(try value("sum:({})") == 0)
        #expect(try value("2.5 & 1") == .null)
        #expect(try value("randomn:(0)") == .null)
    }

    @Test func randomFunctionsStayInRange() throws {
        for _ in 0..<20 {
            guard case .double(let random) = try value("random()"), case .int(let integer) = try value("randomn:(3)")
            else {
                Issue.record("random() or randomn: gave another kind")
                return
            }
            #expect(random >= 0 && random < 1)
            #expect((0..<3).contains(integer))
        }
    }

    // NSString.length counts UTF-16 code units, so "🍎" is 2 and "e\u{301}" is 2.
    @Test func lengthCountsUTF16CodeUnitsAsNSStringDoes() throws {
        let fixture = try PredicateFixture()
        let emoji = fixture.product("emoji 🍎")
        emoji.note = "🍎🍎"
        #expect(try fixture.names(matching: FetchPredicate(format: "note.length == 4")) == ["CAFE", "emoji 🍎"])
        #expect(
            try fixture.names(matching: FetchPredicate(format: "name.length == %d", "e\u{301}clair".utf16.count))
                .contains("e\u{301}clair"))
    }
}
