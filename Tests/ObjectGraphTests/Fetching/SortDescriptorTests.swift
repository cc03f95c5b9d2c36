import Foundation
import ObjectGraph
import Testing

@Suite struct SortDescriptorTests {
    private func names(_ fixture: PredicateFixture, _ descriptors: [ObjectGraph.SortDescriptor]) throws -> [String] {
        try fixture.context.fetch(FetchRequest<Product>(sortDescriptors: descriptors)).map(\.name)
    }

    // MARK: - Orders

    @Test func sortsNumbersAscendingWithTiesInKeyOrder() throws {
        let fixture = try PredicateFixture()
        #expect(
            try names(fixture, [SortDescriptor(key: "price")]) == [
                "min", "", "nan", "banana", "emoji 🍎", "apple", "りんご", "café", "CAFE", "e\u{301}clair", "Ärger",
                "Apple Pie", "straße", "max",
            ])
    }

    @Test func laterDescriptorsBreakTiesOfEarlierOnes() throws {
        let fixture = try PredicateFixture()
        #expect(
            try names(fixture, [SortDescriptor(key: "price", ascending: false), SortDescriptor(key: "name")]) == [
                "max", "straße", "Apple Pie", "Ärger", "e\u{301}clair", "CAFE", "café", "りんご", "apple", "emoji 🍎",
                "banana", "nan", "", "min",
            ])
        #expect(
            try names(fixture, [SortDescriptor(key: "inStock", ascending: false), SortDescriptor(key: "price")]) == [
                "banana", "emoji 🍎", "apple", "りんご", "café", "e\u{301}clair", "straße", "min", "", "nan", "CAFE",
                "Ärger", "Apple Pie", "max",
            ])
    }

    // NSSortDescriptor puts nil first in ascending order (nil compares less than any value).
    @Test func nilSortsFirstAscendingAndLastDescending() throws {
        let fixture = try PredicateFixture()
        let nils = ["Apple Pie", "", "max", "min", "nan", "e\u{301}clair"]
        let ascending = try names(fixture, [SortDescriptor(key: "note")])
        #expect(ascending == nils + ["banana", "CAFE", "café", "straße", "apple", "Ärger", "りんご", "emoji 🍎"])
        let descending = try names(fixture, [SortDescriptor(key: "note", ascending: false)])
        #expect(descending == ["emoji 🍎", "りんご", "Ärger", "apple", "straße", "café", "CAFE", "banana"] + nils)
    }

    @Test func caseInsensitiveComparisonFoldsCase() throws {
        let fixture = try PredicateFixture()
        #expect(
            try names(fixture, [SortDescriptor(key: "name", comparison: .caseInsensitive)]) == [
                "", "apple", "Apple Pie", "banana", "CAFE", "café", "emoji 🍎", "max", "min", "nan", "straße", "Ärger",
                "e\u{301}clair", "りんご",
            ])
    }

    @Test func localizedStandardComparisonOrdersNumbersByValue() throws {
        let (_, context) = try makeContext()
        for name in ["file10", "file9", "File1"] { makeFruit(context, name) }
        let fetched = try context.fetch(
            FetchRequest<Fruit>(sortDescriptors: [SortDescriptor(key: "name", comparison: .localizedStandard)]))
        #expect(fetched.map(\.name) == ["File1", "file9", "file10"])
        let plain = try context.fetch(FetchRequest<Fruit>(sortDescriptors: [SortDescriptor(key: "name")]))
        #expect(plain.map(\.name) == ["File1", "file10", "file9"])
        for comparison in [ObjectGraph.SortDescriptor.Comparison.localized, .localizedCaseInsensitive] {
            let sorted = try context.fetch(
                FetchRequest<Fruit>(sortDescriptors: [SortDescriptor(key: "name", comparison: comparison)]))
            #expect(sorted.count == 3)
        }
    }

    @Test func sortsByKeyPathsThroughToOneRelationships() throws {
        let fixture = try PredicateFixture()
        #expect(
            try names(fixture, [SortDescriptor(key: "shelf.title")]) == [
                "café", "CAFE", "", "max", "min", "nan", "straße", "e\u{301}clair", "emoji 🍎", "banana", "Ärger", "りんご",
                "apple", "Apple Pie",
            ])
        #expect(
            try names(fixture, [SortDescriptor(key: "shelf.shop.city", ascending: false), SortDescriptor(key: "name")])
                == [
                    "Apple Pie", "apple", "banana", "Ärger", "", "CAFE", "café", "emoji 🍎", "max", "min", "nan",
                    "straße",
                    "e\u{301}clair", "りんご",
                ])
    }

    @Test func nanSortsBeforeOtherNumbers() throws {
        let fixture = try PredicateFixture()
        #expect(
            try names(fixture, [SortDescriptor(key: "weight")]) == [
                "nan", "min", "", "banana", "りんご", "apple", "e\u{301}clair", "emoji 🍎", "café", "CAFE", "Apple Pie",
                "Ärger", "straße", "max",
            ])
    }

    @Test func sortsEveryOrderableKind() throws {
        let fixture = try PredicateFixture()
        for key in ["small", "ratio", "cost", "added", "code", "link", "blob", "optionalPrice", "shelf.floor"] {
            let ascending = try names(fixture, [SortDescriptor(key: key)])
            let descending = try names(fixture, [SortDescriptor(key: key, ascending: false)])
            #expect(ascending.count == 14 && descending.count == 14)
        }
        #expect(try names(fixture, [SortDescriptor(key: "added")]).first == "min")
        #expect(try names(fixture, [SortDescriptor(key: "code", ascending: false)]).prefix(2) == ["banana", "apple"])
    }

    // MARK: - Typed key paths

    @Test func typedKeyPathsNameTheirProperty() {
        #expect(SortDescriptor(\Product.price) == SortDescriptor(key: "price"))
        #expect(SortDescriptor(\Product.name, order: .reverse) == SortDescriptor(key: "name", ascending: false))
        #expect(SortDescriptor(\Product.note, comparison: .caseInsensitive).key == "note")
        #expect(SortDescriptor(\Product.shelf).key == "shelf")
        #expect(SortDescriptor(\Fruit.price).key == "price")
        // Required attributes without a default, enums, codable and optional attributes.
        #expect(SortDescriptor(\Sample.required).key == "required")
        #expect(SortDescriptor(\Sample.ripeness).key == "ripeness")
        #expect(SortDescriptor(\Sample.grade).key == "grade")
        #expect(SortDescriptor(\Sample.optionalRipeness).key == "optionalRipeness")
        #expect(SortDescriptor(\Sample.origin).key == "origin")
        #expect(SortDescriptor(\Sample.link).key == "link")
    }

    @Test func keyPathsThatReadNoWrappedPropertyFailTheFetch() throws {
        let fixture = try PredicateFixture()
        // Named: without an expected type, Foundation's SortDescriptor<Product> would match.
        let descriptor = FetchSortDescriptor(\Product.hasChanges)
        let error = #expect(throws: PersistenceError.self) { try names(fixture, [descriptor]) }
        #expect(error?.code == .invalidFetchRequest)
        #expect(error?.entityName == "Product")
        #expect(error?.message.contains("reads no @Attribute or @Relationship property") == true)
    }

    @Test func typedKeyPathsSortFetches() throws {
        let fixture = try PredicateFixture()
        #expect(try names(fixture, [SortDescriptor(\Product.price, order: .reverse)]).first == "max")
    }

    // MARK: - Values and errors

    @Test func descriptorsAreCodableValues() throws {
        let descriptors = [
            SortDescriptor(key: "basket.label", ascending: false, comparison: .localizedStandard),
            SortDescriptor(key: "price"),
        ]
        let data = try JSONEncoder().encode(descriptors)
        #expect(try JSONDecoder().decode([ObjectGraph.SortDescriptor].self, from: data) == descriptors)
        #expect(descriptors[0].reversed == SortDescriptor(key: "basket.label", comparison: .localizedStandard))
        #expect(descriptors[0].description == "basket.label descending, localizedStandard")
        var descriptor = descriptors[1]
        descriptor.order = .reverse
        #expect(!descriptor.ascending && descriptor.order == .reverse)
    }

    @Test func keysThatCannotSortAreErrors() throws {
        let fixture = try PredicateFixture()
        let unknown = #expect(throws: PersistenceError.self) { try names(fixture, [SortDescriptor(key: "colour")]) }
        #expect(unknown?.code == .unknownKey)
        #expect(unknown?.key == "colour")
        let nested = #expect(throws: PersistenceError.self) {
            try names(fixture, [SortDescriptor(key: "shelf.colour")])
        }
        #expect(nested?.code == .unknownKey)
        #expect(nested?.entityName == "Shelf")
        for key in ["labels", "labels.text", "shelf", "", "name.", "name.count"] {
            let error = #expect(throws: PersistenceError.self) { try names(fixture, [SortDescriptor(key: key)]) }
            #expect(error?.code == .invalidFetchRequest || error?.code == .invalidPredicate, "\(key)")
            #expect(error?.entityName == "Product")
        }
        let (_, samples) = try makeContext(model: TestModels.samples)
        let codable = #expect(throws: PersistenceError.self) {
            try samples.fetch(FetchRequest<Sample>(sortDescriptors: [SortDescriptor(key: "origin")]))
        }
        #expect(codable?.code == .invalidFetchRequest)
    }
}
