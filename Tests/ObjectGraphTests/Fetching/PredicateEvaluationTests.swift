import Foundation
import Testing

@testable import ObjectGraph

@Suite struct PredicateEvaluationTests {
    @Test func tableCoversAtLeast150Cases() {
        #expect(PredicateCase.all.count >= 150)
    }

    // MARK: - The table, three ways

    @Test(arguments: PredicateCase.all)
    func selectsTheExpectedSavedObjects(_ row: PredicateCase) throws {
        let fixture = try PredicateFixture()
        let predicate = try row.predicate(in: fixture)
        #expect(try fixture.names(matching: predicate) == row.expected)
        #expect(try fixture.context.count(for: FetchRequest<Product>(predicate: predicate)) == row.expected.count)
    }

    @Test(arguments: PredicateCase.all)
    func selectsTheExpectedUnsavedInserts(_ row: PredicateCase) throws {
        let fixture = try PredicateFixture(save: false)
        let predicate = try row.predicate(in: fixture)
        #expect(try fixture.names(matching: predicate) == row.expected)
    }

    @Test(arguments: PredicateCase.all)
    func selectsTheExpectedRowsInAFreshContext(_ row: PredicateCase) throws {
        let fixture = try PredicateFixture()
        let predicate = try row.predicate(in: fixture)
        let fresh = fixture.container.newContext()
        let products = try fresh.fetch(FetchRequest<Product>(predicate: predicate))
        let names = products.map(\.name)
        #expect(names == row.expected)
        // Only the objects returned are created.
        #expect(fresh.registeredObjects.count == names.count)
        withExtendedLifetime(products) {}
    }

    // MARK: - Semantics worth a test of their own

    @Test func inequalityOfNilMatchesNilAndOrderingOfNilDoesNot() throws {
        let fixture = try PredicateFixture()
        let optionalNil = try fixture.names(matching: FetchPredicate(format: "optionalPrice != 5"))
        #expect(optionalNil.contains("max"))
        #expect(
            try fixture.names(matching: FetchPredicate(format: "optionalPrice <= 1000")) == ["apple", "banana", "りんご"])
        #expect(
            try fixture.names(matching: FetchPredicate(format: "optionalPrice >= -1000")) == ["apple", "banana", "りんご"])
    }

    @Test func combinatorsBuildTheSameTreeAsTheFormat() throws {
        let cheap = try FetchPredicate(format: "price < 100")
        let inStock = try FetchPredicate(format: "inStock == YES")
        #expect((cheap && inStock) == (try FetchPredicate(format: "price < 100 AND inStock == YES")))
        #expect((cheap || inStock) == (try FetchPredicate(format: "price < 100 OR inStock == YES")))
        #expect((!cheap) == (try FetchPredicate(format: "NOT price < 100")))
        let fixture = try PredicateFixture()
        #expect(try fixture.names(matching: cheap && inStock) == ["banana", "emoji 🍎"])
        #expect(try fixture.names(matching: FetchPredicate(value: true)) == PredicateFixtureData.names)
        #expect(try fixture.names(matching: FetchPredicate(value: false)).isEmpty)
    }

    @Test func substitutionLeavesTheTemplateUnchangedAndReportsItsVariables() throws {
        let template = try FetchPredicate(
            format: "price BETWEEN {$LOW, $HIGH} AND SUBQUERY(labels, $l, $l.rank > $R).@count > 0")
        #expect(template.variableNames == ["LOW", "HIGH", "R"])
        let bound = try template.withSubstitutionVariables(["LOW": 0, "HIGH": 200, "R": 1, "UNUSED": "x"])
        #expect(bound.variableNames.isEmpty)
        #expect(template.variableNames == ["LOW", "HIGH", "R"])
        #expect(try PredicateFixture().names(matching: bound) == ["apple", "banana", "CAFE"])
    }

    // "Single or double quoting variables (or substitution variable strings) cause %@, %K, or
    // $variable to be interpreted as a literal in the format string" (Predicate Format String
    // Syntax).
    @Test func stringsInsideQuotesAreNeverPlaceholders() throws {
        let predicate = try FetchPredicate(format: "name == '%@' OR name == \"$X\" OR name == %@", "%K")
        guard case .or(let operands) = predicate.expression, operands.count == 3,
            case let (first, second, third) = (operands[0], operands[1], operands[2]),
            case .comparison(let a) = first, case .comparison(let b) = second, case .comparison(let c) = third
        else {
            Issue.record("unexpected tree \(predicate.expression)")
            return
        }
        #expect(a.rhs == .constant("%@"))
        #expect(b.rhs == .constant("$X"))
        #expect(c.rhs == .constant("%K"))
        #expect(predicate.variableNames.isEmpty)
    }

    @Test func argumentsAreBoundAsValuesNeverAsText() throws {
        let hostile = "x' OR name != '"
        let predicate = try FetchPredicate(format: "name == %@", hostile)
        #expect(try PredicateFixture().names(matching: predicate).isEmpty)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func longChainsParsePrintEncodeAndEvaluate() throws {
        let terms = (0..<3_000).map { "price == \($0)" }
        let predicate = try FetchPredicate(format: terms.joined(separator: " OR "))
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        let data = try JSONEncoder().encode(predicate)
        #expect(try JSONDecoder().decode(FetchPredicate.self, from: data) == predicate)
        #expect(try PredicateFixture().names(matching: predicate) == PredicateCase.except("max", "min"))
    }

    @Test func evaluatesDirectlyOnValueArrays() throws {
        let fixture = try PredicateFixture()
        let apple = fixture.product("apple")
        let predicate = try FetchPredicate(
            format: "price BETWEEN {100, 200} AND name BEGINSWITH 'a' AND shelf.title == 'Top'")
        let compiled = try CompiledPredicate(predicate, entity: apple.info, model: PredicateFixtureData.model)
        let resolve: (ObjectID) -> [StoreValue]? = { id in (try? fixture.context.existingObject(with: id))?.values }
        #expect(compiled.matches(apple.values, resolve: resolve))
        #expect(!compiled.matches(fixture.product("banana").values, resolve: resolve))
        #expect(!compiled.matches(apple.values) { _ in nil })
    }
}
