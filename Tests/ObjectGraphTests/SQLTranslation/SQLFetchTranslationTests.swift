import Foundation
import Testing

@testable import ObjectGraph

/// The SQL the translator writes: native forms where they can use an index, the engine's test
/// where only it agrees, and supersets where a part does not translate.
@Suite struct SQLFetchTranslationTests {
    private static let model = SQLTranslationCatalog.model

    private func translate(
        _ format: String, arguments: [Any?] = [], sort: [FetchSortDescriptor] = [], dialect: SQLDialect = .sqlite
    ) throws -> SQLFetchTranslation {
        SQLFetchTranslation(
            predicate: try FetchPredicate(format: format, argumentArray: arguments).expression, sort: sort,
            entity: try #require(Self.model.info(named: "Item")), schema: try SQLStoreSchema(model: Self.model),
            dialect: dialect)
    }

    /// SQLite's plan for the translation's query.
    private func plan(_ translation: SQLFetchTranslation, on oracle: SQLTranslationOracle) throws -> String {
        try oracle.connection.rows(
            "EXPLAIN QUERY PLAN " + translation.selectKeys(limit: nil, offset: 0), translation.bindings
        )
        .compactMap { $0.last?.text }.joined(separator: "; ")
    }

    // MARK: - Native SQL

    @Test func numberAndPlainStringComparisonsAreNativeAndUseTheIndex() throws {
        let oracle = try SQLTranslationOracleTests.catalog()
        let byName = try translate("name == 'abc'")
        #expect(byName.isExact)
        #expect(byName.condition == #"(t0."name" IS NOT NULL AND t0."name" = ?1)"#)
        #expect(byName.bindings == [.text("abc")])
        let namePlan = try plan(byName, on: oracle)
        #expect(namePlan.contains("Item.name.index"), "\(namePlan)")
        let byCount = try translate("count > 5 AND count <= 100")
        #expect(byCount.isExact && !(byCount.condition ?? "").contains("og_test"))
        #expect(try plan(byCount, on: oracle).contains("Item.count.index"))
    }

    @Test func aConstantThatAnotherCharacterEqualsIsTestedByTheEngine() throws {
        // U+212A KELVIN SIGN equals "K" in Swift: byte equality would miss it.
        let kelvin = try translate("name == 'K9'")
        #expect(kelvin.isExact)
        #expect(kelvin.condition?.contains("og_test") == true)
    }

    @Test func beginsWithNarrowsByAnIndexRangeAndTheEngineDecides() throws {
        let oracle = try SQLTranslationOracleTests.catalog()
        let prefix = try translate("name BEGINSWITH 'ab'")
        #expect(prefix.isExact)
        #expect(prefix.bindings.prefix(2) == [.text("ab"), .text("ac")])
        #expect(prefix.condition?.contains("og_test") == true)
        let prefixPlan = try plan(prefix, on: oracle)
        #expect(prefixPlan.contains("Item.name.index"), "\(prefixPlan)")
    }

    @Test func stringOptionsLikeAndMatchesCallTheEnginesTest() throws {
        for format in [
            "name ==[c] 'abc'", "name CONTAINS[cd] 'e'", "name LIKE 'a*'", "name MATCHES 'a.'", "amount > 1",
        ] {
            let translation = try translate(format)
            #expect(translation.isExact, "\(format)")
            #expect(translation.condition?.hasPrefix("og_test(?1, ") == true, "\(format)")
        }
    }

    @Test func relationshipsBecomeCorrelatedSubqueries() throws {
        let any = try translate("ANY tags.label == 'abc'")
        #expect(any.condition?.contains(#"EXISTS (SELECT 1 FROM "Item.tags" AS"#) == true)
        let all = try translate("ALL parts.quantity > 1")
        #expect(all.condition?.contains(#"NOT EXISTS (SELECT 1 FROM "Part" AS"#) == true)
        let count = try translate("tags.@count == 2")
        #expect(count.condition?.contains("SELECT COUNT(*)") == true)
        #expect(any.isExact && all.isExact && count.isExact)
    }

    @Test func selfAndToOneInObjectsCompareKeys() throws {
        let items = [ObjectID(entityName: "Item", key: 3), ObjectID(entityName: "Group", key: 1)]
        let translation = try translate("SELF IN %@ OR group IN %@", arguments: [items, [items[1]]])
        #expect(translation.isExact)
        #expect(translation.bindings == [.integer(3), .integer(1)])
        #expect(translation.condition?.contains(#"t0."_key" IN (?1)"#) == true)
    }

    @Test func longInListsBindOneParameter() throws {
        let numbers = Array(0..<2_000)
        let translation = try translate("count IN %@", arguments: [numbers])
        #expect(translation.isExact && translation.bindings.count == 1)
        let objects = numbers.map { ObjectID(entityName: "Item", key: Int64($0)) }
        let selves = try translate("SELF IN %@ AND count > 1", arguments: [objects])
        #expect(!selves.isExact && selves.bindings == [.integer(1)])
    }

    // MARK: - Supersets

    @Test func anUntranslatableConjunctIsDroppedLeavingASuperset() throws {
        let translation = try translate("count > 1 AND name.length > 3")
        #expect(!translation.isExact)
        #expect(translation.condition == #"((t0."count" IS NOT NULL AND t0."count" > ?1))"#)
    }

    @Test func anUntranslatableOperandMakesItsOrAndNotSelectEveryRow() throws {
        for format in ["count > 1 OR name.length > 3", "NOT (count > 1 AND count > small)"] {
            let translation = try translate(format)
            #expect(translation.condition == nil && !translation.isExact, "\(format)")
        }
    }

    @Test func withoutCustomFunctionsOnlyNativeFormsTranslate() throws {
        let translation = try translate("name ==[c] 'abc' AND count > 1", dialect: .postgreSQL)
        #expect(!translation.isExact)
        #expect(translation.condition == #"((t0."count" IS NOT NULL AND t0."count" > $1))"#)
        let sorted = try translate("count > 1", sort: [FetchSortDescriptor(key: "count")], dialect: .postgreSQL)
        #expect(sorted.order == #"t0."count" ASC NULLS FIRST, t0."_key" ASC"#)
        #expect(try translate("count > 1", sort: [FetchSortDescriptor(key: "name")], dialect: .postgreSQL).order == nil)
    }

    // MARK: - Sort, limit and offset

    @Test func localizedAndDecimalSortsAreLeftToTheEngine() throws {
        #expect(
            try translate("TRUEPREDICATE", sort: [FetchSortDescriptor(key: "name", comparison: .localized)]).order
                == nil)
        #expect(try translate("TRUEPREDICATE", sort: [FetchSortDescriptor(key: "amount")]).order == nil)
        #expect(try translate("TRUEPREDICATE", sort: [FetchSortDescriptor(key: "objectID")]).order == nil)
        #expect(try translate("TRUEPREDICATE").order == #"t0."_key" ASC"#)
    }

    @Test func limitAndOffsetApplyOnlyToExactOrderedSelections() throws {
        let sort = [FetchSortDescriptor(key: "real", ascending: false), FetchSortDescriptor(key: "name")]
        let exact = try translate("count >= 0", sort: sort)
        #expect(exact.selectKeys(limit: 10, offset: 5).hasSuffix(" LIMIT 10 OFFSET 5"))
        #expect(exact.selectKeys(limit: nil, offset: 5).hasSuffix(" LIMIT -1 OFFSET 5"))
        #expect(
            !(try translate("count >= 0 AND name.length > 1", sort: sort)).selectKeys(limit: 10, offset: 5)
                .contains("LIMIT"))
        #expect(
            !(try translate("count >= 0", sort: [FetchSortDescriptor(key: "amount")])).selectKeys(limit: 10, offset: 5)
                .contains("LIMIT"))

        let oracle = try SQLTranslationOracleTests.catalog()
        var request = FetchRequest<ManagedObject>(
            entityName: "Item", predicate: try FetchPredicate(format: "count >= 0"), sortDescriptors: sort)
        request.fetchLimit = 10
        request.fetchOffset = 5
        let expected = try oracle.context.fetchObjectIDs(request).map(\.key)
        let keys = try oracle.connection.rows(exact.selectKeys(limit: 10, offset: 5), exact.bindings).map {
            $0[0].integer
        }
        #expect(keys == expected)
    }
}
