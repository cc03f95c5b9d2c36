// The index part of Predicates.md, compiled here; GuideTests checks that every Swift block of a
// guide is one of these regions.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

// Predicates example 6 begin
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
// Predicates example 6 end

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
}
