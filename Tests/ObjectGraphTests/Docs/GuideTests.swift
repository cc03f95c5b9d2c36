import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// Keeps the guides honest: each Swift block of a guide must be a region of GuideExamples.swift
/// (which the build compiles), and the examples must do what the guides say.
@Suite struct GuideTests {
    static let exampleFiles = [
        "Tests/ObjectGraphTests/Docs/GuideExamples.swift", "Tests/ObjectGraphTests/Docs/GuideExamples+Kit.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+ChildContexts.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+SwiftPredicates.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+Expressions.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+BatchRequests.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+Indexes.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+Observation.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+Porting.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+Everyday.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+SQLite.swift",
        "Tests/ObjectGraphTests/Docs/GuideExamples+XcodeModel.swift",
    ]

    @Test(arguments: [
        "Relationships", "Validation", "GettingStarted", "Testing", "Stores", "PortingFromCoreData", "Concurrency",
        "Predicates", "Observation",
    ])
    func everyBlockIsCompiledCode(guide: String) throws {
        let text = try String(contentsOf: ReadmeTests.root.appendingPathComponent("Docs/\(guide).md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
            String($0.components(separatedBy: "\n```").first ?? "")
        }
        #expect(!blocks.isEmpty)
        for (index, block) in blocks.enumerated() {
            let name = "\(guide) example \(index + 1)"
            let region = Self.exampleFiles.lazy.compactMap { try? ReadmeTests.region(name, in: $0) }.first
            #expect(region != nil, "no compiled region '\(name)'")
            #expect(
                region == nil || block == region,
                "block \(index + 1) of Docs/\(guide).md differs from its compiled region")
        }
    }

    @Test func gettingStartedExamplesRun() async throws {
        let url = TemporaryDirectory.make().appendingPathComponent("cookbook.ogdb")
        #expect(try cookbook(at: url) == ["Pancakes for 4: flour, milk, egg"])
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Recipe.self, Ingredient.self), storeDescription: .binaryFile(url))
        #expect(try await countRecipesInTheBackground(container) == 1)
    }

    @Test func storesExamplesRun() throws {
        let model = try ManagedObjectModel(Habit.self)
        let json = TemporaryDirectory.make().appendingPathComponent("habits.json")
        #expect(try makeContainer(environment: ["APP_STORE": json.path], model: model).store is JSONFileStore)
        #expect(try makeContainer(environment: ["APP_STORE": "memory"], model: model).store is InMemoryStore)
        #expect(try makeContainer(environment: ["APP_STORE": "null"], model: model).store is DiscardStore)
        #expect(try relaunchWithoutADisk() == 1)
        let fruits = try PersistentContainer(
            model: TestModels.fruits,
            store: SQLiteStore(url: TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")))
        let context = fruits.newContext()
        for price in 1...2_500 { Fruit(context: context).price = Int64(price) }
        try context.save()
        #expect(try totalPrice(in: fruits.newContext()) == 2_500 * 2_501 / 2)
    }

    @MainActor @Test func concurrencyExamplesRun() async throws {
        let container = try PersistentContainer.forTesting(Recipe.self, Ingredient.self)
        let book = RecipeBook(container: container)
        _ = try await book.add("Soup")
        let id = try await book.add("Stew")
        try await container.performBackgroundTask { context in
            (try context.existingObject(with: id) as? Recipe)?.servings = 6
            try context.save()
        }
        #expect(try await showExpensiveRecipes(container) == ["Stew"])
        followBackgroundSaves(container)
        #expect(container.viewContext.automaticallyMergesChanges)
    }

    @Test func portedCodeRuns() throws {
        let container = try PersistentContainer.forTesting(Gadget.self)
        try portedCode(container)
        #expect(try container.newContext().count(for: Gadget.fetchRequest()) == 0)
    }

    @Test func relationshipExamplesBehaveAsDescribed() throws {
        let model = try ManagedObjectModel(Library.self, Bookshelf.self, Book.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        try shelveABook(in: context)
        let library = try #require(try context.fetch(Library.fetchRequest()).first)
        #expect(library.shelves.count == 1 && library.shelves[0].books.count == 1)
        #expect(!context.hasChanges)
        #expect(try ManagedObjectModel(entities: untypedModel.entities).entities.count == 2)
    }

    @Test func importingADuplicateMemberMergesIt() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(Member.self), storeDescription: .inMemory)
        let context = container.newContext()
        try importMember(email: "ada@example.com", name: "Ada", into: context)
        try importMember(email: "ada@example.com", name: "Countess", into: container.newContext())
        let members = try container.newContext().fetch(Member.fetchRequest())
        #expect(members.map(\.name) == ["Countess"])
    }

    @Test func validationExampleReportsEachFailure() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Article.self), storeDescription: .inMemory)
        let context = container.newContext()
        let product = Article(context: context)
        product.name = ""
        product.priceInCents = -1
        product.sku = "abc"
        let failures = saveAndReport(context)
        #expect(failures.count == 3, "\(failures)")
        product.name = "Kettle"
        product.priceInCents = 2_999
        product.sku = "KTL-0001"
        #expect(saveAndReport(context).isEmpty)
    }
}
