import Foundation
import ObjectGraph
import Testing

@Suite struct DiagramCommandTests {
    private func diagram(_ model: String, _ format: String? = nil) -> ToolRun {
        let path = GenerateCommandTests.fixtures.appendingPathComponent(model).path
        return objectgraph(["diagram", path] + (format.map { ["--format", $0] } ?? []))
    }

    // MARK: - Mermaid

    @Test func mermaidDrawsEntitiesRelationshipsAndInheritance() {
        let run = diagram("Journal.xcdatamodeld")
        #expect(run.status == 0, "\(run.error)")
        let lines = run.outputLines
        #expect(lines.first == "classDiagram")
        #expect(lines.contains("    class Item {"))
        #expect(lines.contains("        <<abstract>>"))
        #expect(lines.contains("        uuid identifier"))
        #expect(lines.contains("        string text?"))
        #expect(lines.contains("    Item <|-- Entry"))
        #expect(lines.contains("    Item <|-- Photo"))
        #expect(lines.contains("    Entry \"*\" -- \"0..10\" Tag : tags ordered / entries no action"))
        // The cardinality at each end is how many of that end's objects one object of the other has.
        #expect(lines.contains("    Item \"*\" -- \"0..1\" Notebook : notebook / items cascade"))
        #expect(lines.contains("    Notebook \"*\" -- \"0..1\" Person : owner / notebooks deny"))
        // Each pair of inverses is one line.
        #expect(lines.filter { $0.contains(" -- ") }.count == 3)
    }

    @Test func relationshipWithoutInverseIsAnArrow() {
        let run = diagram("Legacy.xcdatamodel", "mermaid")
        #expect(run.outputLines.contains("    Bank --> \"0..1\" Branch : headOffice no action"))
        #expect(run.outputLines.contains("    Account \"1\" -- \"*\" Transaction : transactions cascade / account"))
    }

    // MARK: - Graphviz

    @Test func dotDrawsRecordsAndCardinalities() {
        let run = diagram("Journal.xcdatamodeld", "dot")
        #expect(run.status == 0)
        let lines = run.outputLines
        #expect(lines.first == "digraph Model {")
        #expect(lines.last == "}")
        #expect(lines.contains { $0.hasPrefix("    \"Item\" [label=\"{«abstract»\\nItem|createdAt: date\\l") })
        #expect(lines.contains("    \"Entry\" -> \"Item\" [arrowhead=empty, style=dashed];"))
        #expect(
            lines.contains {
                $0.hasPrefix("    \"Item\" -> \"Notebook\" [dir=both, arrowhead=tee, arrowtail=crow")
                    && $0.contains("label=\"notebook / items cascade\"")
            })
    }

    // MARK: - Stores and errors

    @Test func storeFileIsDrawnFromItsSchema() throws {
        let model = try ManagedObjectModel(
            contentsOf: GenerateCommandTests.fixtures.appendingPathComponent("Legacy.xcdatamodel"))
        let url = TemporaryDirectory.make().appendingPathComponent("legacy.json")
        let context = try PersistentContainer(model: model, storeDescription: .jsonFile(url)).newContext()
        _ = ManagedObject(entity: try #require(model.entity(named: "Bank")), insertInto: context)
        try context.save()
        let run = objectgraph("diagram", url.path)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.outputLines.contains("    Account \"*\" -- \"0..1\" Bank : bank / accounts deny"))
    }

    @Test func unknownFormatIsAUsageError() {
        let run = diagram("Legacy.xcdatamodel", "svg")
        #expect(run.status == 2)
        #expect(run.error.contains("'svg' is not 'mermaid' or 'dot'"))
    }

    @Test func missingModelFails() {
        let run = objectgraph("diagram", "/nonexistent/Model.xcdatamodeld")
        #expect(run.status == 1)
        #expect(run.error.contains("invalidModel"))
    }
}
