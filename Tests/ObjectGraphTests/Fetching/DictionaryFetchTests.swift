import Foundation
import Testing

@testable import ObjectGraph

@Suite struct DictionaryFetchTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Fruit",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "color", type: .string, isOptional: true),
                    AttributeDescription(name: "price", type: .integer64, isOptional: true),
                    AttributeDescription(name: "weight", type: .double, isOptional: true),
                    AttributeDescription(name: "cost", type: .decimal, isOptional: true),
                    AttributeDescription(name: "picked", type: .date, isOptional: true),
                ],
                relationships: [RelationshipDescription(name: "basket", destination: "Basket", inverse: "fruits")]),
            EntityDescription(
                name: "Basket", attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [
                    RelationshipDescription(name: "fruits", destination: "Fruit", inverse: "basket", isToMany: true)
                ]),
        ])
    }

    /// (name, color, price, weight, cost)
    static let fruits: [(String, String?, Int64?, Double?, Decimal?)] = [
        ("apple", "red", 10, 1.5, 1), ("cherry", "red", 30, 0.5, Decimal(string: "2.5")),
        ("lime", "green", 20, nil, nil),
        ("kiwi", "green", nil, 2, 4), ("pear", "green", 5, 1, 1), ("plum", nil, 7, 3, nil),
        ("banana", "yellow", 12, 2.5, 3),
    ]

    /// A context with the fruits saved, the red ones in one basket and the others in another.
    static func context() throws -> (ManagedContext, PersistentContainer, [ObjectID]) {
        let container = try PersistentContainer(model: model(), storeDescription: .inMemory)
        let context = container.newContext()
        let baskets = try ["red", "other"].map { label in
            let basket = ManagedObject(entity: context.model.entity(named: "Basket")!, insertInto: context)
            try basket.setValue(label, forKey: "label")
            return basket
        }
        for (name, color, price, weight, cost) in fruits {
            let fruit = ManagedObject(entity: context.model.entity(named: "Fruit")!, insertInto: context)
            try fruit.setValue(name, forKey: "name")
            try fruit.setValue(color, forKey: "color")
            try fruit.setValue(price, forKey: "price")
            try fruit.setValue(weight, forKey: "weight")
            try fruit.setValue(cost, forKey: "cost")
            try fruit.setValue(color == "red" ? baskets[0] : baskets[1], forKey: "basket")
        }
        try context.save()
        return (context, container, baskets.map(\.objectID))
    }

    static func request(
        groupBy: [String]? = nil, _ expressions: [ExpressionDescription] = [], sort: [FetchSortDescriptor] = []
    ) -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: "Fruit", sortDescriptors: sort)
        request.propertiesToGroupBy = groupBy
        request.expressionsToFetch = expressions
        return request
    }

    // MARK: - Grouping and aggregates

    @Test func groupsCarryTheirKeysAndAggregatesInFirstFoundOrder() throws {
        let (context, _, _) = try Self.context()
        let results = try context.fetchDictionaries(
            Self.request(
                groupBy: ["color"],
                [
                    .count(as: "fruits"), .count("price", as: "priced"), .sum("price", as: "total"),
                    .min("price", as: "cheapest"), .max("name", as: "last"), .average("weight", as: "meanWeight"),
                ]))
        #expect(results.map { $0["color"] } == [.string("red"), .string("green"), .null, .string("yellow")])
        let green = results[1]
        #expect(green.values.count == 7)
        #expect(green["fruits"] == .int(3))
        #expect(green["priced"] == .int(2))
        #expect(green["total"] == .int(25))
        #expect(green["cheapest"] == .int(5))
        #expect(green["last"] == .string("pear"))
        #expect(green["meanWeight"] == .double(1.5))
        #expect(results[2]["total"] == .int(7))
        #expect(results[0].value(forKey: "meanWeight", as: Double.self) == 1)
    }

    @Test func aggregatesWithoutGroupingMakeOneDictionaryEvenOfNoObjects() throws {
        let (context, _, _) = try Self.context()
        var request = Self.request([.count(as: "n"), .sum("cost", as: "cost"), .average("cost", as: "mean")])
        let all = try context.fetchDictionaries(request)
        #expect(
            all == [
                FetchedDictionary(values: [
                    "n": .int(7), "cost": .decimal(Decimal(string: "11.5")!), "mean": .decimal(Decimal(string: "2.3")!),
                ])
            ])
        request.predicate = try FetchPredicate(format: "price > 1000")
        let none = try context.fetchDictionaries(request)
        #expect(none == [FetchedDictionary(values: ["n": .int(0), "cost": .int(0), "mean": .null])])
    }

    @Test func groupingByAToOneRelationshipGivesTheDestinationsIDs() throws {
        let (context, _, baskets) = try Self.context()
        var request = Self.request(groupBy: ["basket", "basket.label"], [.sum("price", as: "total")])
        request.propertiesToFetch = ["basket"]
        let results = try context.fetchDictionaries(request)
        #expect(results.map { $0["basket"] } == baskets.map { .object($0) })
        #expect(results.map { $0["total"] } == [.int(40), .int(44)])
        #expect(results.allSatisfy { $0["basket.label"] == nil })
    }

    @Test func pendingChangesCountUnlessTheRequestExcludesThem() throws {
        let (context, _, _) = try Self.context()
        let lemon = ManagedObject(entity: context.model.entity(named: "Fruit")!, insertInto: context)
        try lemon.setValue("lemon", forKey: "name")
        try lemon.setValue("yellow", forKey: "color")
        try lemon.setValue(Int64(8), forKey: "price")
        var request = Self.request(groupBy: ["color"], [.sum("price", as: "total")])
        request.predicate = try FetchPredicate(format: "color == 'yellow'")
        #expect(try context.fetchDictionaries(request).map { $0["total"] } == [.int(20)])
        request.includesPendingChanges = false
        #expect(try context.fetchDictionaries(request).map { $0["total"] } == [.int(12)])
    }

    // MARK: - Having, sort, distinct, paging

    @Test func havingKeepsGroupsByKeyOrVariable() throws {
        let (context, _, _) = try Self.context()
        var request = Self.request(groupBy: ["color"], [.count(as: "fruits"), .sum("price", as: "total")])
        request.havingPredicate = try FetchPredicate(format: "fruits >= 2 AND color != 'red'")
        #expect(try context.fetchDictionaries(request).map { $0["color"] } == [.string("green")])
        request.havingPredicate = try FetchPredicate(format: "$total > 20")
        #expect(try context.fetchDictionaries(request).map { $0["color"] } == [.string("red"), .string("green")])
    }

    @Test func groupsSortByAggregatesAndPageAfterHaving() throws {
        let (context, _, _) = try Self.context()
        var request = Self.request(
            groupBy: ["color"], [.sum("price", as: "total")],
            sort: [FetchSortDescriptor(key: "total", ascending: false), FetchSortDescriptor(key: "color")])
        #expect(
            try context.fetchDictionaries(request).map { $0["color"] } == [
                .string("red"), .string("green"), .string("yellow"), .null,
            ])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try context.fetchDictionaries(request).map { $0["total"] } == [.int(25), .int(12)])
    }

    @Test func distinctResultsKeepTheFirstOfEqualDictionaries() throws {
        let (context, _, _) = try Self.context()
        var request = Self.request(sort: [FetchSortDescriptor(key: "name", ascending: false)])
        request.propertiesToFetch = ["color"]
        request.returnsDistinctResults = true
        #expect(
            try context.fetchDictionaries(request).map { $0["color"] } == [
                .null, .string("green"), .string("red"), .string("yellow"),
            ])
        request.fetchLimit = 2
        request.fetchOffset = 1
        #expect(try context.fetchDictionaries(request).map { $0["color"] } == [.string("green"), .string("red")])
        request.returnsDistinctResults = false
        request.fetchLimit = 0
        request.fetchOffset = 0
        #expect(try context.fetchDictionaries(request).count == 7)
    }

    // MARK: - Misuse

    @Test func misuseThrowsInvalidFetchRequestNamingTheKey() throws {
        let (context, _, _) = try Self.context()
        var having = Self.request([.count(as: "n")])
        having.havingPredicate = try FetchPredicate(format: "n > 1")
        var notGrouped = Self.request(groupBy: ["color"], [.count(as: "n")])
        notGrouped.propertiesToFetch = ["color", "name"]
        var besideAggregates = Self.request([.count(as: "n")])
        besideAggregates.propertiesToFetch = ["name"]
        let cases: [(FetchRequest<ManagedObject>, String?)] = [
            (having, nil), (notGrouped, "name"), (besideAggregates, "name"),
            (Self.request([.sum("name", as: "s")]), "name"), (Self.request([.average("basket", as: "a")]), "basket"),
            (Self.request([.min("picked", as: "p"), .max("picked", as: "p")]), "p"),
            (Self.request([ExpressionDescription(name: "s", function: .sum, keyPath: nil)]), "s"),
            (Self.request([.count(as: "")]), nil),
            (Self.request(groupBy: ["color"], [.count(as: "color")]), "color"),
        ]
        for (request, key) in cases {
            let error = #expect(throws: PersistenceError.self) { try context.fetchDictionaries(request) }
            #expect(error?.code == .invalidFetchRequest, "\(request)")
            #expect(error?.entityName == "Fruit", "\(request)")
            #expect(error?.key == key, "\(request)")
        }
        let toMany = #expect(throws: PersistenceError.self) {
            try context.fetchDictionaries(
                FetchRequest<ManagedObject>(entityName: "Basket").grouped(by: ["fruits"], [.count(as: "n")]))
        }
        #expect(toMany?.code == .invalidFetchRequest)
        #expect(toMany?.key == "fruits")
        let unknown = #expect(throws: PersistenceError.self) {
            try context.fetchDictionaries(Self.request(groupBy: ["colour"], [.count(as: "n")]))
        }
        #expect(unknown?.code == .unknownKey)
        #expect(unknown?.key == "colour")
        let sortKey = #expect(throws: PersistenceError.self) {
            try context.fetchDictionaries(
                Self.request(groupBy: ["color"], [.count(as: "n")], sort: [FetchSortDescriptor(key: "price")]))
        }
        #expect(sortKey?.code == .invalidFetchRequest)
        #expect(sortKey?.entityName == "Fruit")
        #expect(sortKey?.key == "price")
        var havingKey = Self.request(groupBy: ["color"], [.count(as: "n")])
        havingKey.havingPredicate = try FetchPredicate(format: "price > 1")
        let havingError = #expect(throws: PersistenceError.self) { try context.fetchDictionaries(havingKey) }
        #expect(havingError?.code == .invalidFetchRequest)
        #expect(havingError?.key == "price")
    }
}

extension FetchRequest {
    fileprivate func grouped(by keys: [String], _ expressions: [ExpressionDescription]) -> FetchRequest {
        var request = self
        request.propertiesToGroupBy = keys
        request.expressionsToFetch = expressions
        return request
    }
}
