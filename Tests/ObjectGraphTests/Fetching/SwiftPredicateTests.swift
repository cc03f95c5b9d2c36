import Foundation
import Testing

@testable import ObjectGraph

@Suite struct SwiftPredicateTests {
    @Test func tableCoversAtLeast30Shapes() {
        #expect(SwiftPredicateCase.all.count >= 30)
        #expect(SwiftPredicateCase.converted.count >= 30)
    }

    // MARK: - The table

    @Test(arguments: SwiftPredicateCase.all)
    func convertsOrFallsBackAsExpected(_ row: SwiftPredicateCase) {
        let predicate = FetchPredicate(row.predicate)
        #expect(predicate.evaluatesInSwift == !row.converts)
        #expect(predicate.description == row.printed)
    }

    @Test(arguments: SwiftPredicateCase.all)
    func selectsWhatTheFormatAndFoundationSelectOnSavedObjects(_ row: SwiftPredicateCase) throws {
        let fixture = try PredicateFixture()
        try expectSameSelection(row, in: fixture)
    }

    @Test(arguments: SwiftPredicateCase.all)
    func selectsWhatTheFormatAndFoundationSelectOnUnsavedInserts(_ row: SwiftPredicateCase) throws {
        let fixture = try PredicateFixture(save: false)
        try expectSameSelection(row, in: fixture)
    }

    @Test(arguments: SwiftPredicateCase.all)
    func honoursPendingUpdatesAndDeletes(_ row: SwiftPredicateCase) throws {
        let fixture = try PredicateFixture()
        let apple = fixture.product("apple")
        apple.price = 10
        apple.inStock = false
        apple.note = nil
        fixture.context.delete(fixture.product("banana"))
        fixture.product("CAFE").note = "other"
        fixture.product("").shelf = fixture.shelf("Top")
        let inserted = Product(context: fixture.context)
        inserted.name = "pend"
        inserted.price = 150
        inserted.inStock = true
        inserted.note = "CAFE"
        inserted.shelf = fixture.shelf("Side")
        try expectSameSelection(row, in: fixture)
    }

    @Test(arguments: SwiftPredicateCase.all)
    func convertedPredicatesRoundTripThroughFormatAndJSON(_ row: SwiftPredicateCase) throws {
        let predicate = FetchPredicate(row.predicate)
        guard row.converts else {
            let error = #expect(throws: PersistenceError.self) { try JSONEncoder().encode(predicate) }
            #expect(error?.code == .unsupportedPredicate)
            #expect(error?.message.contains("#Predicate<Product>") == true)
            return
        }
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        let decoded = try JSONDecoder().decode(FetchPredicate.self, from: JSONEncoder().encode(predicate))
        #expect(decoded == predicate)
    }

    /// The `#Predicate` selects the same products, in the same order, as its format equivalent
    /// and as Foundation's own evaluation of every product; `count(for:)` agrees.
    private func expectSameSelection(_ row: SwiftPredicateCase, in fixture: PredicateFixture) throws {
        let predicate = FetchPredicate(row.predicate)
        let swift = try fixture.names(matching: predicate)
        let format = try fixture.names(matching: row.formatPredicate)
        #expect(swift == format, "format: \(row.format)")
        let all = try fixture.context.fetch(FetchRequest<Product>())
        let foundation = try all.filter { try row.predicate.evaluate($0) }.map(\.name)
        #expect(swift == foundation)
        #expect(try fixture.context.count(for: FetchRequest<Product>(predicate: predicate)) == swift.count)
    }

    // MARK: - Fetch options with a Swift part

    @Test func swiftPartHonoursSortLimitAndOffset() throws {
        let fixture = try PredicateFixture()
        var request = FetchRequest<Product>(predicate: FetchPredicate(#Predicate<Product> { $0.name.count > 4 }))
        request.sortDescriptors = [SortDescriptor(key: "price", ascending: false)]
        request.fetchOffset = 1
        request.fetchLimit = 2
        let expected = try fixture.context.fetch(FetchRequest<Product>())
            .filter { $0.name.count > 4 }.sorted { $0.price > $1.price }.dropFirst().prefix(2).map(\.name)
        #expect(try fixture.context.fetch(request).map(\.name) == expected)
        #expect(try fixture.context.count(for: request) == 2)
        var unsorted = request
        unsorted.sortDescriptors = []
        let inKeyOrder = PredicateFixtureData.names.filter { $0.count > 4 }
        #expect(try fixture.context.fetch(unsorted).map(\.name) == Array(inKeyOrder.dropFirst().prefix(2)))
    }

    @Test func swiftPartIgnoresPendingChangesWhenAsked() throws {
        let fixture = try PredicateFixture()
        fixture.product("apple").name = "a much longer name"
        let product = Product(context: fixture.context)
        product.name = "another long one"
        var request = FetchRequest<Product>(predicate: FetchPredicate(#Predicate<Product> { $0.name.count > 10 }))
        #expect(try fixture.context.fetch(request).map(\.name) == ["a much longer name", "another long one"])
        request.includesPendingChanges = false
        // Committed rows only: the pending insert is left out. The Swift part is given the
        // registered object, which has the unsaved name (a format predicate sees the saved one).
        #expect(try fixture.context.fetch(request).map(\.name) == ["a much longer name"])
        request.predicate = try FetchPredicate(format: "name == 'a much longer name'")
        #expect(try fixture.context.fetch(request).isEmpty)
    }

    // MARK: - Combining

    @Test func combiningWithFormatPredicatesKeepsTheSwiftPart() throws {
        let fixture = try PredicateFixture()
        let long = FetchPredicate(#Predicate<Product> { $0.name.count > 5 })
        let cheap = try FetchPredicate(format: "price < 120")
        let longNames = Set(PredicateFixtureData.names.filter { $0.count > 5 })
        let all = try fixture.context.fetch(FetchRequest<Product>())
        func expected(_ test: (Product) -> Bool) -> [String] { all.filter(test).map(\.name) }

        #expect(
            try fixture.names(matching: long && cheap) == expected { longNames.contains($0.name) && $0.price < 120 })
        #expect(
            try fixture.names(matching: cheap && long) == expected { longNames.contains($0.name) && $0.price < 120 })
        #expect(
            try fixture.names(matching: long || cheap) == expected { longNames.contains($0.name) || $0.price < 120 })
        #expect(try fixture.names(matching: !long) == expected { !longNames.contains($0.name) })
        #expect(
            try fixture.names(matching: !(long && cheap))
                == expected { !(longNames.contains($0.name) && $0.price < 120) })
        #expect(try fixture.names(matching: long && long) == expected { longNames.contains($0.name) })
        #expect((long && cheap).evaluatesInSwift)
        #expect((cheap || long).evaluatesInSwift)
        #expect(!(cheap && cheap).evaluatesInSwift)
        #expect((long && cheap).description == "price < 120 AND #Predicate<Product>")
        #expect((!long).description == "NOT #Predicate<Product>")
        #expect((cheap || long).description == "price < 120 OR #Predicate<Product>")
        #expect((!(long && cheap)).description == "NOT (price < 120 AND #Predicate<Product>)")
    }

    @Test func predicatesWithASwiftPartAreEqualOnlyToThemselves() {
        let swift = #Predicate<Product> { $0.name.count > 5 }
        let first = FetchPredicate(swift)
        let second = FetchPredicate(swift)
        #expect(first == first)
        #expect(first != second)
        #expect(
            FetchPredicate(#Predicate<Product> { $0.price > 1 }) == FetchPredicate(#Predicate<Product> { $0.price > 1 })
        )
        #expect(Set([first, first, second]).count == 2)
    }

    // MARK: - Errors

    @Test func aThrowingSwiftPredicateFailsTheFetchWithATypedError() throws {
        let fixture = try PredicateFixture()
        fixture.product("apple").price = 1
        let changes = fixture.context.hasChanges
        let predicate = FetchPredicate(#Predicate<Product> { $0.note! == "x" })
        let error = #expect(throws: PersistenceError.self) {
            try fixture.context.fetch(FetchRequest<Product>(predicate: predicate))
        }
        #expect(error?.code == .invalidPredicate)
        #expect(error?.entityName == "Product")
        #expect(error?.objectID != nil)
        #expect(error?.underlying != nil)
        #expect(error?.message.contains("#Predicate<Product>") == true)
        let countError = #expect(throws: PersistenceError.self) {
            try fixture.context.count(for: FetchRequest<Product>(predicate: predicate))
        }
        #expect(countError?.code == .invalidPredicate)
        var sorted = FetchRequest<Product>(predicate: predicate)
        sorted.sortDescriptors = [SortDescriptor(key: "price", ascending: true)]
        #expect(throws: PersistenceError.self) { try fixture.context.fetch(sorted) }
        // The failure changed nothing.
        #expect(fixture.context.hasChanges == changes)
        #expect(fixture.product("apple").price == 1)
    }

    @Test func aSwiftPredicateForAnotherClassIsRejectedBeforeFetching() throws {
        let fixture = try PredicateFixture()
        let predicate = FetchPredicate(#Predicate<Product> { $0.name.count > 1 })
        let error = #expect(throws: PersistenceError.self) {
            try fixture.context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf", predicate: predicate))
        }
        #expect(error?.code == .invalidFetchRequest)
        #expect(error?.entityName == "Shelf")
        // A converted predicate is checked like a format predicate: the key is unknown.
        let converted = FetchPredicate(#Predicate<Product> { $0.price > 1 })
        let keyError = #expect(throws: PersistenceError.self) {
            try fixture.context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf", predicate: converted))
        }
        #expect(keyError?.code == .unknownKey)
    }

    @Test func evaluatorsWithoutObjectsRefuseASwiftPartInsteadOfMatchingTooMuch() throws {
        let model = PredicateFixtureData.model
        let info = try #require(model.info(named: "Product"))
        let partly = FetchPredicate(#Predicate<Product> { $0.price > 100 && $0.name.count > 4 })
        let error = #expect(throws: PersistenceError.self) {
            try CompiledPredicate(partly, entity: info, model: model)
        }
        #expect(error?.code == .unsupportedPredicate)
        #expect(error?.message.contains("#Predicate<Product>") == true)
        let converted = FetchPredicate(#Predicate<Product> { $0.price > 100 })
        _ = try CompiledPredicate(converted, entity: info, model: model)
    }

    @Test func anUntypedRequestForTheSameEntityUsesTheSwiftPart() throws {
        let fixture = try PredicateFixture()
        let predicate = FetchPredicate(#Predicate<Product> { $0.name.count > 6 })
        let objects = try fixture.context.fetch(
            FetchRequest<ManagedObject>(entityName: "Product", predicate: predicate))
        #expect(
            try objects.map { try $0.value(forKey: "name") as? String }
                == PredicateFixtureData.names.filter { $0.count > 6 })
    }

    @Test func unicodeAndEmptyCapturedValuesConvert() throws {
        let fixture = try PredicateFixture()
        let empty = ""
        #expect(FetchPredicate(#Predicate<Product> { $0.name == empty }).description == #"name == """#)
        #expect(try fixture.names(matching: FetchPredicate(#Predicate<Product> { $0.name == empty })) == [""])
        let apple = "りんご"
        #expect(
            try fixture.names(matching: FetchPredicate(#Predicate<Product> { $0.name.starts(with: apple) })) == ["りんご"])
        let quote = #"say "hi" %@"#
        let predicate = FetchPredicate(#Predicate<Product> { $0.name == quote })
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        #expect(try fixture.names(matching: predicate).isEmpty)
    }

    @Test func hugeCapturedCollectionsConvertToIN() throws {
        let fixture = try PredicateFixture()
        let prices = (0..<10_000).map { Int64($0) * 2 }
        let predicate = FetchPredicate(#Predicate<Product> { prices.contains($0.price) })
        #expect(!predicate.evaluatesInSwift)
        #expect(
            try fixture.names(matching: predicate) == [
                "apple", "Apple Pie", "banana", "Ärger", "café", "CAFE", "りんご", "", "straße",
            ])
    }
}

/// A class with computed properties over its attributes, for key path conversion.
final class Switchboard: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Attribute var isOn = false
    var doubled: Int64 { price * 2 }
    var shout: String { name.uppercased() }
    var isOff: Bool { !isOn }
    var samePrice: Int64 { price }
}

@Suite struct SwiftPredicateKeyPathTests {
    @Test func computedPropertiesFallBackAndSelectWhatSwiftSelects() throws {
        let container = try PersistentContainer(
            model: ManagedObjectModel(Switchboard.self), storeDescription: .inMemory)
        let context = container.newContext()
        for (name, price, isOn) in [("a", 10, true), ("b", 60, false), ("c", 100, true)] as [(String, Int64, Bool)] {
            let gadget = Switchboard(context: context)
            gadget.name = name
            gadget.price = price
            gadget.isOn = isOn
        }
        try context.save()
        let cases: [(Predicate<Switchboard>, converts: Bool)] = [
            (#Predicate<Switchboard> { $0.doubled > 100 }, false),
            (#Predicate<Switchboard> { $0.shout == "B" }, false),
            (#Predicate<Switchboard> { $0.isOff }, false),
            // Reads the attribute unchanged: indistinguishable from it, and equivalent.
            (#Predicate<Switchboard> { $0.samePrice > 50 }, true),
            (#Predicate<Switchboard> { $0.price > 50 }, true),
        ]
        let all = try context.fetch(FetchRequest<Switchboard>())
        for (swift, converts) in cases {
            let predicate = FetchPredicate(swift)
            #expect(predicate.evaluatesInSwift == !converts, "\(predicate)")
            let expected = try all.filter { try swift.evaluate($0) }.map(\.name)
            #expect(try context.fetch(FetchRequest<Switchboard>(predicate: predicate)).map(\.name) == expected)
        }
        #expect(FetchPredicate(#Predicate<Switchboard> { $0.samePrice > 50 }).description == "price > 50")
    }
}

@Suite struct SwiftPredicateAttributeKindTests {
    @Test func enumsCodableValuesAndOptionalsConvertOrFallBackSafely() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let values: [(Ripeness, Ripeness?, Origin?, Grade)] = [
            (.green, nil, nil, .low), (.ripe, .ripe, Origin(country: "FR", farms: ["a"], rating: 1), .high),
            (.overripe, .green, nil, .high),
        ]
        for (index, (ripeness, optionalRipeness, origin, grade)) in values.enumerated() {
            let sample = Sample(context: context)
            sample.required = "r\(index)"
            sample.ripeness = ripeness
            sample.optionalRipeness = optionalRipeness
            sample.optionalOrigin = origin
            sample.grade = grade
        }
        try context.save()
        let ripe = Ripeness.ripe
        let farms = ["a"]
        let cases: [(Predicate<Sample>, converts: Bool)] = [
            (#Predicate<Sample> { $0.ripeness == ripe }, false),
            (#Predicate<Sample> { $0.optionalRipeness == nil }, true),
            (#Predicate<Sample> { $0.optionalOrigin != nil }, true),
            (#Predicate<Sample> { $0.optionalOrigin?.farms == farms }, false),
            (#Predicate<Sample> { $0.required == "r1" || $0.optionalRipeness == nil }, true),
        ]
        let all = try context.fetch(FetchRequest<Sample>())
        for (swift, converts) in cases {
            let predicate = FetchPredicate(swift)
            #expect(predicate.evaluatesInSwift == !converts, "\(predicate)")
            let expected = try all.filter { try swift.evaluate($0) }.map(\.required)
            #expect(try context.fetch(FetchRequest<Sample>(predicate: predicate)).map(\.required) == expected)
        }
    }
}
