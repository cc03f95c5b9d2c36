import Foundation
import ObjectGraph

/// `objectgraph generate MODEL --output DIR`: one Swift class per entity of an Xcode model.
enum GenerateCommand {
    static let command = Command(
        name: "generate",
        summary: "Write a Swift ManagedObject subclass for every entity of an Xcode Core Data model.",
        arguments: ["MODEL"],
        options: [
            .value("--output", "DIR", help: "Write the files into DIR (created if missing). Required."),
            .flag(
                "--skip-unsupported",
                help: "Leave out fetched properties and derived or composite attributes instead of failing."),
        ],
        discussion: """
            Reads MODEL (a .xcdatamodeld bundle's current version, a .xcdatamodel folder or its
            contents file) and writes DIR/<Class>.swift for each entity: a ManagedObject subclass
            with an @Attribute or @Relationship for each property, as Xcode's "Class Definition"
            code generation does for Core Data. Existing files of those names are replaced. It
            prints each file written, then what the import changed or left out.

            Example: objectgraph generate Journal.xcdatamodeld --output Sources/App/Model
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        guard let directory = arguments.value("--output") else {
            throw UsageError(message: "the option '--output DIR' is required: usage: \(command.usage).")
        }
        let url = URL(fileURLWithPath: arguments.positionals[0])
        let model = try XcodeModel(
            contentsOf: url,
            options: XcodeModel.Options(skipsUnsupportedProperties: arguments.flag("--skip-unsupported")))
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let generator = SwiftClassGenerator(model: model, sourceName: url.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in generator.files() {
                try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name), options: .atomic)
                output.line("wrote \(folder.appendingPathComponent(file.name).path)")
            }
        } catch {
            output.errorLine("objectgraph generate: writing into \(folder.path) failed: \(error)")
            return ExitStatus.failure
        }
        for note in model.notes { output.line("note: \(note)") }
        return ExitStatus.success
    }
}
