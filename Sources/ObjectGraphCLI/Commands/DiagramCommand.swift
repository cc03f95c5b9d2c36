import Foundation
import ObjectGraph

/// `objectgraph diagram MODEL_OR_STORE --format mermaid|dot`: the model as a diagram.
enum DiagramCommand {
    static let command = Command(
        name: "diagram",
        summary: "Draw a model's entities, properties, relationships and inheritance (Mermaid or Graphviz).",
        arguments: ["MODEL_OR_STORE"],
        options: [
            .value("--format", "FORMAT", help: "mermaid (the default: renders in Markdown on GitHub) or dot.")
        ],
        discussion: """
            Reads MODEL_OR_STORE (an Xcode model: a .xcdatamodeld bundle, a .xcdatamodel folder
            or its contents file; or a JSON or binary store file, whose schema is used) and prints
            a class diagram: each entity with its attributes (type, ? for optional), each
            relationship with its cardinality at both ends and its delete rule, and each parent
            entity. Paste Mermaid output into a ```mermaid block; render dot output with
            'dot -Tsvg'.

            Example: objectgraph diagram Journal.xcdatamodeld --format mermaid
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let format = arguments.value("--format") ?? "mermaid"
        guard format == "mermaid" || format == "dot" else {
            throw UsageError(message: "the format '\(format)' is not 'mermaid' or 'dot'.")
        }
        let url = URL(fileURLWithPath: arguments.positionals[0])
        let entities = try schema(at: url)
        let diagram = ModelDiagram(entities: entities)
        for line in format == "dot" ? diagram.dot() : diagram.mermaid() { output.line(line) }
        return ExitStatus.success
    }

    /// The entities of the Xcode model or store file at `url`.
    static func schema(at url: URL) throws -> [EntityDescription] {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if isDirectory.boolValue || ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension)
            || url.lastPathComponent == "contents" || !exists
        {
            let options = XcodeModel.Options(skipsUnsupportedProperties: true)
            return try XcodeModel(contentsOf: url, options: options).entityDescriptions
        }
        return try StoreFileInspector.inspect(url).schema
    }
}
