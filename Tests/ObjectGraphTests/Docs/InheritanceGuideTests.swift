import Foundation
import ObjectGraph
import Testing

/// Keeps Docs/Inheritance.md honest: each Swift block is a region of
/// GuideExamples+Inheritance.swift, and the examples do what the guide says.
@Suite struct InheritanceGuideTests {
    @Test func everyBlockIsCompiledCode() throws {
        let text = try String(
            contentsOf: ReadmeTests.root.appendingPathComponent("Docs/Inheritance.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
            String($0.components(separatedBy: "\n```").first ?? "")
        }
        #expect(blocks.count == 3)
        for (index, block) in blocks.enumerated() {
            let region = try ReadmeTests.region(
                "Inheritance example \(index + 1)", in: "Tests/ObjectGraphTests/Docs/GuideExamples+Inheritance.swift")
            #expect(block == region, "block \(index + 1) of Docs/Inheritance.md differs from its compiled region")
        }
    }

    @Test func shapesExampleFetchesEverySubEntity() throws {
        let container = try PersistentContainer(model: try makeShapesModel(), storeDescription: .inMemory)
        let context = container.newContext()
        let canvas = Canvas(context: context)
        for (index, area) in [3.0, 12.0, 7.0].enumerated() {
            let shape: Shape = index == 1 ? Square(context: context) : Circle(context: context)
            shape.area = area
            shape.canvas = canvas
        }
        try context.save()
        let shapes = try largeShapes(on: canvas, minimumArea: 5, in: context)
        #expect(shapes.map(\.area) == [12, 7])
        #expect(shapes.first is Square && shapes.last is Circle)
        #expect(try circleCount(in: context) == 2)
        _ = Shape(context: context)
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .validation)
    }

    @Test func documentExampleFlattensTheHierarchy() throws {
        let model = try makeDocumentModel()
        #expect(model.entity(named: "Item")?.subentities.map(\.name) == ["Note"])
    }
}
