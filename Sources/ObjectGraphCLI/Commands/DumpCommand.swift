import Foundation
import ObjectGraph

/// `objectgraph dump FILE [--entity NAME]`: every object as one line of JSON.
enum DumpCommand {
    static let command = Command(
        name: "dump",
        summary: "Print a store file's objects as JSON lines, in a stable order.",
        arguments: ["FILE"],
        options: [.value("--entity", "NAME", help: "Print only the objects of the entity NAME.")],
        discussion: """
            Prints one line of JSON per object of FILE, entities in name order and objects in key
            order, so that two dumps of the same data are identical:

              {"entity":"Fruit","key":1,"version":1,"values":{"name":"apple","basket":1}}

            Values are written as the JSON store writes them: decimals, UUIDs, URLs and codable
            values as strings, binary data as base64, dates as seconds since 2001-01-01 UTC,
            relationships as the keys of their destinations. The file is only read.

            Example: objectgraph dump fruits.store --entity Fruit
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let url = URL(fileURLWithPath: arguments.positionals[0])
        try StoreFileInspector.dump(url, entity: arguments.value("--entity")) { output.line($0) }
        return ExitStatus.success
    }
}
