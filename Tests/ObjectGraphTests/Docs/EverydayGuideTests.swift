import Foundation
import ObjectGraph
import Testing

/// Runs the guide examples of GuideExamples+Everyday.swift.
@Suite struct EverydayGuideTests {
    @Test func relationshipsExampleKeepsTheCountAndSumsGoals() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Roster.self, Player.self), storeDescription: .inMemory)
        let context = container.newContext()
        let roster = Roster(context: context)
        let ada = Player(context: context)
        ada.goals = 3
        let bo = Player(context: context)
        bo.goals = 4
        #expect(try sign(ada, to: roster) == 3)
        #expect(try sign(bo, to: roster) == 7)
        context.delete(ada)
        #expect(roster.playerCount == 1 && roster.players == [bo])
    }

    @Test func storesExampleOpensACatalogReadOnly() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("catalog.ogdb")
        let model = try ManagedObjectModel(Snippet.self)
        do {
            let writer = try PersistentContainer(model: model, storeDescription: .binaryFile(url))
            let context = writer.newContext()
            Snippet(context: context).title = "hello"
            try context.save()
        }
        let catalog = try openCatalog(at: url, model: model)
        let context = catalog.newContext()
        #expect(try context.count(for: Snippet.fetchRequest()) == 1)
        Snippet(context: context).title = "more"
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .readOnlyStore)
    }

    @Test func predicatesExampleFindsTaggedSnippets() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Snippet.self), storeDescription: .inMemory)
        let context = container.newContext()
        for (title, tags) in [("a", ["swift", "linux"]), ("b", ["swift"]), ("c", [])] {
            let snippet = Snippet(context: context)
            snippet.title = title
            snippet.tags = tags
        }
        try context.save()
        #expect(try snippets(taggedWith: "linux", in: context).map(\.title) == ["a"])
        #expect(try snippetsWithSwiftPredicate(taggedWith: "swift", in: context).map(\.title).sorted() == ["a", "b"])
    }
}
