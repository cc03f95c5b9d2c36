import Foundation
import ObjectGraph
import Testing

@Suite struct FetchPredicateIntegrationTests {
    /// Five saved fruits a…e priced 10…50, then unsaved: f (25) and g (5) inserted, b repriced
    /// to 60, c deleted.
    private func makePendingChanges() throws -> (PersistentContainer, ManagedContext, [String: Fruit]) {
        let (container, context) = try makeContext()
        var fruits: [String: Fruit] = [:]
        for (index, name) in ["a", "b", "c", "d", "e"].enumerated() {
            fruits[name] = makeFruit(context, name, price: Int64(index + 1) * 10)
        }
        try context.save()
        fruits["f"] = makeFruit(context, "f", price: 25)
        fruits["g"] = makeFruit(context, "g", price: 5)
        fruits["b"]!.price = 60
        context.delete(fruits["c"]!)
        return (container, context, fruits)
    }

    // MARK: - Pending changes

    @Test func predicateSortOffsetAndLimitSeePendingInsertsUpdatesAndDeletes() throws {
        let (_, context, _) = try makePendingChanges()
        var request = FetchRequest<Fruit>(
            predicate: try FetchPredicate(format: "price >= %d", 10), sortDescriptors: [SortDescriptor(key: "price")])
        #expect(try context.fetch(request).map(\.name) == ["a", "f", "d", "e", "b"])
        #expect(try context.count(for: request) == 5)
        request.fetchOffset = 1
        request.fetchLimit = 3
        #expect(try context.fetch(request).map(\.name) == ["f", "d", "e"])
        #expect(try context.count(for: request) == 3)
        request.fetchOffset = 4
        #expect(try context.fetch(request).map(\.name) == ["b"])
        #expect(try context.count(for: request) == 1)
    }

    // Core Data: with includesPendingChanges false the fetch reads the store only.
    @Test func committedOnlyRequestsMatchAndSortOnSavedValues() throws {
        let (_, context, fruits) = try makePendingChanges()
        var request = FetchRequest<Fruit>(
            predicate: try FetchPredicate(format: "price >= 10"), sortDescriptors: [SortDescriptor(key: "price")])
        request.includesPendingChanges = false
        request.fetchOffset = 1
        request.fetchLimit = 3
        let fetched = try context.fetch(request)
        #expect(fetched.map(\.name) == ["b", "c", "d"])
        #expect(fetched[0] === fruits["b"])
        #expect(fetched[0].price == 60)
        #expect(try context.count(for: request) == 3)
    }

    @Test func unsortedPredicateFetchesKeepKeyOrderAcrossSavedAndPendingObjects() throws {
        let (_, context, _) = try makePendingChanges()
        let request = FetchRequest<Fruit>(predicate: try FetchPredicate(format: "price < 30 OR price > 55"))
        #expect(try context.fetch(request).map(\.name) == ["a", "b", "f", "g"])
    }

    @Test func anUpdateThatNoLongerMatchesLeavesTheResults() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        try context.save()
        apple.name = "pear"
        let request = FetchRequest<Fruit>(predicate: try FetchPredicate(format: "name == 'apple'"))
        #expect(try context.fetch(request).isEmpty)
        #expect(try context.count(for: request) == 0)
        context.rollback()
        #expect(try context.fetch(request) == [apple])
    }

    @Test func keyPathsThroughRelationshipsSeeUnsavedRelatedObjects() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        let basket = Basket(context: context)
        basket.label = "Kitchen"
        apple.basket = basket
        try context.save()
        let request = FetchRequest<Fruit>(predicate: try FetchPredicate(format: "basket.label == %@", "Garden"))
        #expect(try context.fetch(request).isEmpty)
        basket.label = "Garden"
        #expect(try context.fetch(request) == [apple])
        let pear = makeFruit(context, "pear")
        let fresh = Basket(context: context)
        fresh.label = "Garden"
        pear.basket = fresh
        #expect(try context.fetch(request) == [apple, pear])
        let owner = Owner(context: context)
        owner.name = "Ann"
        basket.owner = owner
        #expect(try context.fetch(Fruit.fetchRequest(predicate: "basket.owner.name == 'Ann'")) == [apple])
    }

    @Test func deletedRelatedObjectsLeaveToManyMatches() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        let tag = Tag(context: context)
        tag.title = "red"
        apple.tags = [tag]
        try context.save()
        let request = FetchRequest<Fruit>(predicate: try FetchPredicate(format: "ANY tags.title == 'red'"))
        #expect(try context.fetch(request) == [apple])
        context.delete(tag)
        #expect(try context.fetch(request).isEmpty)
        #expect(try context.fetch(Fruit.fetchRequest(predicate: "tags.@count == 0")) == [apple])
    }

    @Test func savesOfOtherContextsAreVisible() throws {
        let (container, context) = try makeContext()
        let other = container.newContext()
        makeFruit(other, "kiwi", price: 7)
        makeFruit(other, "lime", price: 70)
        try other.save()
        #expect(try context.fetch(Fruit.fetchRequest(predicate: "price < 10")).map(\.name) == ["kiwi"])
    }

    @Test func untypedRequestsFilterAndSortByEntityName() throws {
        let (_, context) = try makeContext()
        makeFruit(context, "b", price: 2)
        makeFruit(context, "a", price: 1)
        makeFruit(context, "c", price: 3)
        let request = FetchRequest<ManagedObject>(
            entityName: "Fruit", predicate: try FetchPredicate(format: "price > 1"),
            sortDescriptors: [SortDescriptor(key: "name", ascending: false)])
        #expect(try context.fetch(request).map { try $0.value(forKey: "name") as? String } == ["c", "b"])
        #expect(request.description.contains("predicate: price > 1"))
    }

    @Test func sortingIsStableAcrossSavedAndPendingObjects() throws {
        let (_, context) = try makeContext()
        for name in ["s1", "s2", "s3"] { makeFruit(context, name, price: 5) }
        try context.save()
        for name in ["p1", "p2"] { makeFruit(context, name, price: 5) }
        makeFruit(context, "cheap", price: 1)
        let request = FetchRequest<Fruit>(sortDescriptors: [SortDescriptor(key: "price")])
        #expect(try context.fetch(request).map(\.name) == ["cheap", "s1", "s2", "s3", "p1", "p2"])
    }

    @Test func attributeValueArgumentsBindTheirStoredForm() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        sample.required = "x"
        sample.ripeness = .ripe
        sample.grade = .high
        sample.origin = Origin(country: "NZ", farms: ["a"], rating: 4.5)
        sample.optionalText = nil
        let other = Sample(context: context)
        other.required = "y"
        try context.save()
        let cases: [(String, Any?)] = [
            ("ripeness == %@", Ripeness.ripe), ("grade == %@", Grade.high), ("grade > %d", 1),
            ("origin == %@", Origin(country: "NZ", farms: ["a"], rating: 4.5)), ("required == %@", "x"),
            ("optionalRipeness == %@", nil as Ripeness?), ("ripeness IN %@", [Ripeness.ripe, .overripe]),
            ("link == %@", URL(string: "https://example.com")!), ("single == %@", 0 as Float),
        ]
        for (format, argument) in cases {
            let request = FetchRequest<Sample>(predicate: try FetchPredicate(format: format, argument))
            let expected =
                format.hasPrefix("optional") || format.hasPrefix("link") || format.hasPrefix("single") ? 2 : 1
            #expect(try context.count(for: request) == expected, "\(format)")
        }
        let wrongKind = #expect(throws: PersistenceError.self) {
            try context.fetch(FetchRequest<Sample>(predicate: try FetchPredicate(format: "ripeness == 1")))
        }
        #expect(wrongKind?.code == .typeMismatch)
    }

    @Test func invalidPredicatesFailBeforeAnyObjectIsCreated() throws {
        let (container, _) = try makeContext()
        let context = container.newContext()
        let other = container.newContext()
        makeFruit(other, "kiwi")
        try other.save()
        #expect(throws: PersistenceError.self) { try context.fetch(Fruit.fetchRequest(predicate: "colour == 1")) }
        #expect(context.registeredObjects.isEmpty)
    }
}

extension FetchableObject {
    /// A request with a predicate, for brevity in tests.
    static func fetchRequest(predicate format: String) throws -> FetchRequest<Self> {
        FetchRequest<Self>(predicate: try FetchPredicate(format: format))
    }
}
