// The index part of Predicates.md (examples 7 to 9), compiled here; GuideTests checks that every
// Swift block of a guide is one of these regions.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

// Predicates example 7 begin
final class Listing: ManagedObject {
    @Attribute(indexed: true) var city = ""
    @Attribute(indexed: true) var rent: Int64 = 0
    @Attribute var title = ""
}

// The same declaration for a model built from descriptions:
let listingRent = AttributeDescription(name: "rent", type: .integer64, isOptional: false, isIndexed: true)

func affordableFlats(in context: ManagedContext, city: String) throws -> [Listing] {
    // Both conjuncts use an index (their keys are intersected); the sort comes from the rent index.
    var request = FetchRequest<Listing>(
        predicate: try FetchPredicate(format: "city == %@ AND rent BETWEEN {%d, %d}", city, 500, 900))
    request.sortDescriptors = [SortDescriptor(key: "rent")]
    return try context.fetch(request)
}
// Predicates example 7 end

// Predicates example 8 begin
func listings(in context: ManagedContext, cityPrefix: String) throws -> [Listing] {
    // With 2,048 listings or more, the first such fetch builds the column of `city`; later
    // fetches use it (while no saved listing has unsaved changes in the context).
    let request = FetchRequest<Listing>(predicate: try FetchPredicate(format: "city BEGINSWITH %@", cityPrefix))
    return try context.fetch(request)
}
// Predicates example 8 end

@Suite struct IndexGuideTests {
    @Test func indexExampleFindsCommittedAndPendingListings() throws {
        let container = try PersistentContainer.forTesting(Listing.self)
        #expect(container.model.entity(named: "Listing")?.attributesByName["rent"]?.isIndexed == true)
        #expect(container.model.entity(named: "Listing")?.attributesByName["title"]?.isIndexed == false)
        #expect(listingRent.isIndexed)
        let context = container.newContext()
        for (city, rent, title) in [
            ("Lyon", 950, "loft"), ("Lyon", 700, "studio"), ("Nice", 600, "flat"), ("Lyon", 500, "room"),
            ("Lyon", 900, "attic"), ("Lyon", 499, "cellar"),
        ] {
            let listing = Listing(context: context)
            (listing.city, listing.rent, listing.title) = (city, Int64(rent), title)
        }
        try context.save()
        #expect(try affordableFlats(in: context, city: "Lyon").map(\.title) == ["room", "studio", "attic"])
        // Unsaved changes count as they do without an index.
        let pending = Listing(context: context)
        (pending.city, pending.rent, pending.title) = ("Lyon", 800, "new")
        let studio = try affordableFlats(in: context, city: "Lyon")[1]
        studio.rent = 1_200
        #expect(try affordableFlats(in: context, city: "Lyon").map(\.title) == ["room", "new", "attic"])
        #expect(try affordableFlats(in: context, city: "lyon").isEmpty)
    }

    @Test func prefixColumnExampleFindsTheSameListingsBeforeAndAfterSaves() throws {
        let container = try PersistentContainer.forTesting(Listing.self)
        let context = container.newContext()
        let cities = ["San Diego", "Santa Fe", "Salem", "san jose", "São Paulo", "Sa", "Lyon", ""]
        for number in 0..<2_400 {
            let listing = Listing(context: context)
            (listing.city, listing.title) = (cities[number % cities.count], "\(number)")
        }
        try context.save()
        func titles(_ prefix: String) throws -> Set<String> {
            Set(try listings(in: context, cityPrefix: prefix).map(\.title))
        }
        let expected = Set((0..<2_400).filter { cities[$0 % cities.count].hasPrefix("San") }.map { "\($0)" })
        #expect(try titles("San") == expected)
        #expect(try titles("San") == expected)
        // "São Paulo" and "san jose" do not begin with "Sa".
        #expect(try titles("Sa").count == 2_400 / 8 * 4)
        // A saved rename is seen; an unsaved one too.
        let lyon = try listings(in: context, cityPrefix: "Lyon")
        lyon[0].city = "Santa Cruz"
        #expect(try titles("San").count == expected.count + 1)
        try context.save()
        #expect(try titles("San").count == expected.count + 1)
        #expect(try titles("Lyon").count == 2_400 / 8 - 1)
    }
}

// Predicates example 9 begin
final class Order: ManagedObject {
    @Attribute var id = UUID()
    @Attribute var customer = ""
    @Attribute var placed = Date(timeIntervalSinceReferenceDate: 0)
    override class var indexes: [FetchIndexDescription] {
        [FetchIndexDescription([\Order.id]), FetchIndexDescription([\Order.customer, \Order.placed])]
    }
}

// The same indexes for a model built from descriptions:
let orderIndexes = [
    FetchIndexDescription(name: "id", propertyNames: ["id"]),
    FetchIndexDescription(name: "customer_placed", propertyNames: ["customer", "placed"]),
]

func recentOrders(of customer: String, since date: Date, in context: ManagedContext) throws -> [Order] {
    // `customer ==` then a range on `placed`: one lookup in the compound index.
    let predicate = try FetchPredicate(format: "customer == %@ AND placed >= %@", customer, date)
    return try context.fetch(
        FetchRequest<Order>(predicate: predicate, sortDescriptors: [SortDescriptor(key: "placed")]))
}
// Predicates example 9 end

@Suite struct CompoundIndexGuideTests {
    @Test func orderIndexesFindRecentOrdersAndLookUpByID() throws {
        let container = try PersistentContainer.forTesting(Order.self)
        let entity = try #require(container.model.entity(named: "Order"))
        #expect(entity.indexes.map(\.propertyNames) == orderIndexes.map(\.propertyNames))
        #expect(entity.indexes.map(\.name) == orderIndexes.map(\.name))
        let context = container.newContext()
        var ids: [UUID] = []
        for (customer, day) in [("ann", 1.0), ("bob", 2), ("ann", 3), ("ann", 5), ("bob", 6)] {
            let order = Order(context: context)
            (order.customer, order.placed) = (customer, Date(timeIntervalSinceReferenceDate: day * 86_400))
            ids.append(order.id)
        }
        try context.save()
        let recent = try recentOrders(of: "ann", since: Date(timeIntervalSinceReferenceDate: 2 * 86_400), in: context)
        #expect(recent.map(\.id) == [ids[2], ids[3]])
        let byID = try context.fetch(FetchRequest<Order>(predicate: FetchPredicate(format: "id == %@", ids[4])))
        #expect(byID.map(\.customer) == ["bob"])
    }
}
