import Foundation
import ObjectGraph
import Testing

@Suite struct FetchedResultsSectionTests {
    /// Fruits in baskets "a" (apple, avocado), "b" (banana) and none (nut), a controller in
    /// sections by basket label, and the changes it reports.
    final class Fixture {
        let container: PersistentContainer
        let context: ManagedContext
        let controller: FetchedResultsController<Fruit>
        var reported: [FetchedResultsChanges] = []
        let baskets: [String: Basket]

        init(keyPath: String? = "basket.label") throws {
            (container, context) = try makeContext()
            var made: [String: Basket] = [:]
            for label in ["a", "b"] {
                let basket = Basket(context: context)
                basket.label = label
                made[label] = basket
            }
            for (name, label) in [("apple", "a"), ("avocado", "a"), ("banana", "b"), ("nut", nil)] {
                makeFruit(context, name).basket = label.flatMap { made[$0] }
            }
            baskets = made
            try context.save()
            var request = Fruit.fetchRequest()
            request.sortDescriptors = [SortDescriptor(key: "basket.label"), SortDescriptor(key: "name")]
            controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: keyPath)
            try controller.performFetch()
            controller.onChange = { [unowned self] in reported.append($0) }
        }

        var sectionNames: [String] { (controller.sections ?? []).map(\.name) }
    }

    // MARK: - Sections

    @Test func sectionsGroupConsecutiveObjectsByTheKeyPath() throws {
        let fixture = try Fixture()
        let sections = try #require(fixture.controller.sections)
        #expect(sections.map(\.name) == ["", "a", "b"])
        #expect(sections.map(\.numberOfObjects) == [1, 2, 1])
        #expect(sections[1].objects.map(\.name) == ["apple", "avocado"])
        #expect(sections.map(\.indexTitle) == [nil, "A", "B"])
        #expect(fixture.controller.sectionIndexTitles == ["A", "B"])
        let avocado = sections[1].objects[1]
        #expect(fixture.controller.indexPath(of: avocado)! == (section: 1, item: 1))
    }

    @Test func withoutKeyPathThereIsOneSectionAndNoneBeforeTheFetch() throws {
        let fixture = try Fixture(keyPath: nil)
        #expect(fixture.controller.sections?.map(\.numberOfObjects) == [4])
        #expect(fixture.controller.sections?.map(\.name) == [""])
        let unfetched = FetchedResultsController(
            fetchRequest: Fruit.fetchRequest(), context: fixture.context, sectionNameKeyPath: "name")
        #expect(unfetched.sections == nil)
    }

    @Test func aKeyPathTheEntityCannotReadIsRefused() throws {
        let fixture = try Fixture()
        let unknown = FetchedResultsController(
            fetchRequest: Fruit.fetchRequest(), context: fixture.context, sectionNameKeyPath: "basket.colour")
        let error = #expect(throws: PersistenceError.self) { try unknown.performFetch() }
        #expect(error?.code == .unknownKey)
        #expect(error?.key == "basket.colour")
        let toMany = FetchedResultsController(
            fetchRequest: Fruit.fetchRequest(), context: fixture.context, sectionNameKeyPath: "tags")
        let manyError = #expect(throws: PersistenceError.self) { try toMany.performFetch() }
        #expect(manyError?.code == .invalidFetchRequest)
        #expect(manyError?.key == "tags")
        #expect(toMany.sections == nil)
    }

    // MARK: - Section changes

    @Test func emptyingASectionDeletesItAndANewNameInsertsOne() throws {
        let fixture = try Fixture()
        let banana = fixture.controller.sections![2].objects[0]
        banana.basket = fixture.baskets["a"]
        try fixture.context.save()
        #expect(fixture.sectionNames == ["", "a"])
        #expect(fixture.reported.last?.deletedSections == [2])
        #expect(fixture.reported.last?.insertedSections == [])
        let cherry = makeFruit(fixture.context, "cherry")
        let basket = Basket(context: fixture.context)
        basket.label = "c"
        cherry.basket = basket
        try fixture.context.save()
        #expect(fixture.sectionNames == ["", "a", "c"])
        #expect(fixture.reported.last?.insertedSections == [2])
        #expect(fixture.reported.last?.inserted == [4])
    }

    @Test func renamingTheRelatedObjectRenamesTheSection() throws {
        let fixture = try Fixture()
        fixture.baskets["b"]!.label = "z"
        try fixture.context.save()
        #expect(fixture.sectionNames == ["", "a", "z"])
        #expect(fixture.reported.count == 1)
        #expect(fixture.reported.last?.deletedSections == [2])
        #expect(fixture.reported.last?.insertedSections == [2])
    }

    @Test func theChangeStreamCarriesSectionChanges() async throws {
        let fixture = try Fixture()
        var stream = fixture.controller.changes.makeAsyncIterator()
        fixture.context.delete(fixture.controller.sections![0].objects[0])
        try fixture.context.save()
        let changes = await stream.next()
        #expect(changes?.deleted == [0])
        #expect(changes?.deletedSections == [0])
    }
}
