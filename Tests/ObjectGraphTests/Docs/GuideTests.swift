import Foundation
import ObjectGraph
import Testing

/// Keeps the guides honest: each Swift block of a guide must be a region of GuideExamples.swift
/// (which the build compiles), and the examples must do what the guides say.
@Suite struct GuideTests {
    @Test(arguments: ["Relationships", "Validation"])
    func everyBlockIsCompiledCode(guide: String) throws {
        let text = try String(contentsOf: ReadmeTests.root.appendingPathComponent("Docs/\(guide).md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
            String($0.components(separatedBy: "\n```").first ?? "")
        }
        #expect(!blocks.isEmpty)
        for (index, block) in blocks.enumerated() {
            let region = try ReadmeTests.region(
                "\(guide) example \(index + 1)", in: "Tests/ObjectGraphTests/Docs/GuideExamples.swift")
            #expect(block == region, "block \(index + 1) of Docs/\(guide).md differs from its compiled region")
        }
    }

    @Test func relationshipExamplesBehaveAsDescribed() throws {
        let model = try ManagedObjectModel(Library.self, Shelf.self, Book.self)
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
            model: try ManagedObjectModel(Product.self), storeDescription: .inMemory)
        let context = container.newContext()
        let product = Product(context: context)
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
