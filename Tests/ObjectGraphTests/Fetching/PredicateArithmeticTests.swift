import Foundation
import Testing

@testable import ObjectGraph

/// Arithmetic, bitwise operators, `.length`, composed `%K` key paths and the `[n]`/`[l]`
/// options: the trees they parse to, how they print, and where they work besides plain fetches
/// (the table of ``PredicateCase/computed`` covers fetches, counts, unsaved inserts, fresh
/// contexts, printing and encoding).
@Suite struct PredicateArithmeticTests {
    private func tree(_ format: String, _ arguments: Any?...) throws -> ObjectGraph.PredicateExpression {
        try FetchPredicate(format: format, argumentArray: arguments).expression
    }

    private typealias Operand = ObjectGraph.PredicateExpression.Operand

    private func call(_ name: String, _ arguments: Operand...) -> Operand { .function(name, arguments) }

    // MARK: - Trees

    // "binary_expression ::= expression binary_operator expression | "-" expression" with
    // binary_operator "+" | "-" | "*" | "/" | "**" (Predicate Format String Syntax, BNF).
    @Test func operatorsParseToTheFunctionsOfNSExpression() throws {
        let price = Operand.key("price")
        let expected = ObjectGraph.PredicateExpression.comparison(
            .init(
                call(
                    "add:to:", price,
                    call("multiply:by:", .constant(2), call("raise:toPower:", .constant(3), .constant(2)))),
                .greaterThan, .constant(1)))
        #expect(try tree("price + 2 * 3 ** 2 > 1") == expected)
        // Left-associative, except ** (right-associative as in mathematics).
        #expect(
            try tree("price - 1 - 2 == 0")
                == .comparison(
                    .init(
                        call("from:subtract:", call("from:subtract:", price, .constant(1)), .constant(2)), .equalTo,
                        .constant(0))))
        #expect(
            try tree("2 ** 3 ** 2 == price")
                == .comparison(
                    .init(
                        call("raise:toPower:", .constant(2), call("raise:toPower:", .constant(3), .constant(2))),
                        .equalTo, price)))
        // Unary minus of a key path is 0 - x; of a literal, the negative constant.
        #expect(
            try tree("-price == -1")
                == .comparison(.init(call("from:subtract:", .constant(0), price), .equalTo, .constant(-1))))
        // Bitwise operators bind looser than arithmetic: C's order, | loosest.
        #expect(
            try tree("price & 1 + 2 | 8 == 0")
                == .comparison(
                    .init(
                        call(
                            "bitwiseOr:with:",
                            call("bitwiseAnd:with:", price, call("add:to:", .constant(1), .constant(2))), .constant(8)),
                        .equalTo, .constant(0))))
        #expect(try tree("~price == 0") == .comparison(.init(call("onesComplement:", price), .equalTo, .constant(0))))
    }

    @Test func parenthesesStartEitherAPredicateOrAnOperand() throws {
        let flags = Operand.key("flags")
        let masked = ObjectGraph.PredicateExpression.comparison(
            .init(call("bitwiseAnd:with:", flags, .constant(4)), .equalTo, .constant(4)))
        #expect(try tree("(flags & 4) == 4") == masked)
        #expect(try tree("(%K & %d) == %d", "flags", 4, 4) == masked)
        #expect(try tree("((flags & 4) == 4)") == masked)
        #expect(
            try tree("((flags) & (4)) == 4 AND (flags > 1)")
                == .and([masked, .comparison(.init(flags, .greaterThan, .constant(1)))]))
    }

    @Test func functionNamesAreAcceptedWithOrWithoutTheirColon() throws {
        let expected = ObjectGraph.PredicateExpression.comparison(
            .init(call("average:", .key("scores")), .greaterThan, .constant(1)))
        #expect(try tree("average:(scores) > 1") == expected)
        #expect(try tree("average(scores) > 1") == expected)
        #expect(try tree("AVERAGE(scores) > 1") == expected)
        #expect(try tree("now() > 1") == .comparison(.init(call("now"), .greaterThan, .constant(1))))
        #expect(
            try tree("modulus:by:(a, 2) == 1")
                == .comparison(.init(call("modulus:by:", .key("a"), .constant(2)), .equalTo, .constant(1))))
    }

    @Test func keyPathArgumentsComposeWithKeysAndEachOther() throws {
        #expect(try tree("ANY %K.%K == %@", "labels", "text", "red") == tree("ANY labels.text == 'red'"))
        #expect(try tree("shelf.%K == 1", "shop.city") == tree("shelf.shop.city == 1"))
        #expect(try tree("%K.name == 1", "shelf") == tree("shelf.name == 1"))
        #expect(try tree("labels.%K > 1", "@count") == tree("labels.@count > 1"))
        #expect(try tree("%K.%K > 1", "shelf", "products.@sum.price") == tree("shelf.products.@sum.price > 1"))
        #expect(try tree("%K.length > 0", "name") == tree("name.length > 0"))
    }

    @Test func stringOptionsNAndLAreKeptAndPrinted() throws {
        let predicate = try FetchPredicate(format: "name ==[cdnl] 'a' AND name BEGINSWITH[n] 'b'")
        guard case .and(let parts) = predicate.expression, case .comparison(let first) = parts[0],
            case .comparison(let second) = parts[1]
        else {
            Issue.record("not two comparisons")
            return
        }
        #expect(first.options == [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive])
        #expect(second.options == .normalized)
        #expect(predicate.description == "name ==[cdnl] \"a\" AND name BEGINSWITH[n] \"b\"")
    }

    // MARK: - Printing

    @Test func printsOperatorsWithTheFewestParentheses() throws {
        let examples: [(String, String)] = [
            ("(price + 1) * 2 == 4", "(price + 1) * 2 == 4"),
            ("price + (1 * 2) == 4", "price + 1 * 2 == 4"),
            ("price - (1 - 2) == 4", "price - (1 - 2) == 4"),
            ("(2 ** 3) ** 2 == price", "(2 ** 3) ** 2 == price"),
            ("2 ** (3 ** 2) == price", "2 ** 3 ** 2 == price"),
            ("-(price + 1) == 0", "-(price + 1) == 0"),
            ("- price == 0", "-price == 0"),
            ("0 - 5 == price", "0 - 5 == price"),
            ("~(flags | 1) == 0", "~(flags | 1) == 0"),
            ("(flags & 4) == 4", "flags & 4 == 4"),
            ("ABS(price) == 1", "abs:(price) == 1"),
            ("now() > added", "now() > added"),
            ("TERNARY(a > 1, 'x', b) == 'x'", "TERNARY(a > 1, \"x\", b) == \"x\""),
            ("tags[first].name == 'x' AND tags[SIZE] == 2", "tags[FIRST].name == \"x\" AND tags[SIZE] == 2"),
            ("{1, 2}[0 + 1] == 2", "{1, 2}[0 + 1] == 2"),
            ("(a + b)[LAST] == 1", "(a + b)[LAST] == 1"),
            ("name ==[nc] 'a'", "name ==[cn] \"a\""),
        ]
        for (format, printed) in examples {
            let predicate = try FetchPredicate(format: format)
            #expect(predicate.description == printed, "\(format)")
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(format)")
        }
    }

    // MARK: - Evaluation beyond fetches

    @Test func computedPredicatesSelectInBatchUpdatesAndDeletes() throws {
        let fixture = try PredicateFixture()
        let update = BatchUpdateRequest(
            Product.self, predicate: try FetchPredicate(format: "(price & 4) == 4 AND name.length > 4"),
            propertiesToUpdate: ["note": .string("flagged")])
        #expect(try fixture.context.execute(update).count == 3)
        let fresh = fixture.container.newContext()
        let flagged = FetchRequest<Product>(predicate: try FetchPredicate(format: "note == 'flagged'"))
        #expect(try fresh.fetch(flagged).map(\.name) == ["apple", "straße", "e\u{301}clair"])
        let delete = BatchDeleteRequest(
            Product.self,
            predicate: try FetchPredicate(format: "price * 2 == 200 OR ANY %K.%K == %@", "labels", "text", "sweet"))
        #expect(try fixture.context.execute(delete).count == 3)
        #expect(try fresh.count(for: FetchRequest<Product>()) == 11)
    }

    @Test func computedPredicatesSeePendingChangesOfAChildContext() throws {
        let fixture = try PredicateFixture()
        let child = fixture.context.newChildContext()
        let apple = try #require(
            try child.fetch(FetchRequest<Product>(predicate: try FetchPredicate(format: "name == 'apple'"))).first)
        apple.price = 7
        let inserted = Product(context: child)
        inserted.name = "new"
        inserted.price = 5
        // min * 3 overflows: computed in Double, it is still below 30.
        let predicate = try FetchPredicate(format: "price * 3 < 30 AND name.length >= 3")
        #expect(
            try child.fetch(FetchRequest<Product>(predicate: predicate)).map(\.name) == ["apple", "min", "nan", "new"])
        #expect(try child.count(for: FetchRequest<Product>(predicate: predicate)) == 4)
        // The parent does not see the child's changes until it saves.
        #expect(try fixture.names(matching: predicate) == ["min", "nan"])
        try child.save()
        #expect(try fixture.names(matching: predicate) == ["apple", "min", "nan", "new"])
    }

    // MARK: - The fast paths

    @Test func constantCallsAreComputedOnceAndKeepTheRowFastPath() throws {
        let info = try #require(PredicateFixtureData.model.info(named: "Product"))
        let model = PredicateFixtureData.model
        let folded = try CompiledPredicate(
            FetchPredicate(format: "added < now() - 86400 AND price > 2 * 50"), entity: info, model: model)
        #expect(folded.isRowLocal)
        #expect(folded.root.slotConjuncts.count == 2)
        // A call that reads the object is evaluated per object, off the row fast paths.
        let computed = try CompiledPredicate(FetchPredicate(format: "price * 2 > 200"), entity: info, model: model)
        #expect(!computed.isRowLocal)
        #expect(computed.root.slotConjuncts.isEmpty)
    }

    @Test func rowFastPathAndGeneralEvaluationAgreeOnFoldedCalls() throws {
        let fixture = try PredicateFixture()
        for format in ["price > 2 * 50", "price > abs:(-100) AND price < 100 + 100", "name BEGINSWITH lowercase:('A')"]
        {
            let folded = try FetchPredicate(format: format)
            let plain = try FetchPredicate(
                format: format.replacingOccurrences(of: "2 * 50", with: "100")
                    .replacingOccurrences(of: "abs:(-100)", with: "100").replacingOccurrences(
                        of: "100 + 100", with: "200"
                    )
                    .replacingOccurrences(of: "lowercase:('A')", with: "'a'"))
            #expect(try fixture.names(matching: folded) == fixture.names(matching: plain), "\(format)")
            // The general path: a TERNARY forces evaluation per object.
            let general = try FetchPredicate(format: "TERNARY(name == name, 1, 0) == 1 AND (\(format))")
            #expect(try fixture.names(matching: general) == fixture.names(matching: plain), "\(format)")
        }
    }

    // Apple's parser accepts FUNCTION(receiver, 'selector', …) and calls the method when it
    // evaluates; here it parses and prints back, and a fetch refuses it naming the selector.
    @Test func selectorFunctionsParseAndFailWhenFetchedNamingTheSelector() throws {
        let predicate = try FetchPredicate(format: "FUNCTION(SELF, 'isFavorite:', 2) == YES AND price > 1")
        #expect(predicate.description == "FUNCTION(SELF, \"isFavorite:\", 2) == YES AND price > 1")
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        let fixture = try PredicateFixture()
        let error = #expect(throws: PersistenceError.self) { try fixture.names(matching: predicate) }
        #expect(error?.code == .unsupportedPredicate)
        #expect(error?.message.contains("FUNCTION(…)") == true)
        #expect(error?.message.contains("'isFavorite:'") == true)
    }

    @Test func treesWithUnknownFunctionsOrArityFailWhenFetchedWithATypedError() throws {
        let fixture = try PredicateFixture()
        for operand in [
            Operand.function("frobnicate:", [.key("price")]), .function("abs:", [.key("price"), .constant(1)]),
        ] {
            let predicate = FetchPredicate(.comparison(.init(operand, .equalTo, .constant(1))))
            let error = #expect(throws: PersistenceError.self) { try fixture.names(matching: predicate) }
            #expect(error?.code == .unsupportedPredicate)
            #expect(
                error?.message.contains(
                    operand == .function("abs:", [.key("price"), .constant(1)]) ? "abs:" : "frobnicate:") == true)
        }
    }

    @Test func indexProbesServeFoldedCallsAsTheyServeConstants() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Fruit.self, Basket.self, Owner.self, Tag.self), storeDescription: .inMemory)
        let context = container.newContext()
        for (index, name) in ["kiwi", "fig", "KIWI", "plum", "kiwi"].enumerated() {
            let fruit = Fruit(context: context)
            fruit.name = name
            fruit.price = Int64(index)
        }
        try context.save()
        let fresh = container.newContext()
        func prices(_ format: String) throws -> [Int64] {
            try fresh.fetch(FetchRequest<Fruit>(predicate: try FetchPredicate(format: format))).map(\.price)
        }
        // `name` is indexed: the folded call is a constant, so the probe answers it.
        #expect(try prices("name == lowercase:('KIWI')") == [0, 4])
        #expect(try prices("name == lowercase:('KIWI')") == prices("name == 'kiwi'"))
        #expect(try prices("name IN {uppercase:('kiwi'), 'fig'}") == [1, 2])
        // Evaluated per object, off the index, the same rows match.
        #expect(try prices("lowercase:(name) == 'kiwi'") == [0, 2, 4])
        #expect(try prices("name == TERNARY(price >= 0, 'kiwi', 'x')") == [0, 4])
    }

    // MARK: - Encoding

    @Test func newOperandsEncodeAsTaggedJSONAndDecode() throws {
        let predicate = try FetchPredicate(
            format: "abs:(price) > 1 AND TERNARY(a == 1, b, c) == 1 AND tags[LAST] == nil AND x[2] == 1")
        let data = try JSONEncoder().encode(predicate)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"function\":\"abs:\""))
        #expect(text.contains("\"ternary\""))
        #expect(text.contains("\"index\""))
        #expect(try JSONDecoder().decode(FetchPredicate.self, from: data) == predicate)
    }
}
