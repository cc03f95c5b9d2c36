import Foundation
import ObjectGraph

/// `objectgraph diff A B`: the schema differences between two stores.
enum DiffCommand {
    static let command = Command(
        name: "diff",
        summary: "Print the schema differences between two store files.",
        arguments: ["A", "B"],
        discussion: """
            Reads the schema each store file carries and prints one line per difference that
            decides how the stored data reads (an entity, attribute or relationship that one has
            and the other lacks, a changed type, optionality, cardinality or destination), as
            seen going from A to B. Exits with status 0 when the schemas match and 1 when they
            differ, as diff does. The files are only read.

            Example: objectgraph diff old.store new.store
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let old = try StoreFileInspector.model(of: URL(fileURLWithPath: arguments.positionals[0]))
        let new = try StoreFileInspector.model(of: URL(fileURLWithPath: arguments.positionals[1]))
        let differences = new.schemaDifferences(from: old)
        guard !differences.isEmpty else {
            output.line("the schemas match")
            return ExitStatus.success
        }
        for difference in differences { output.line(difference) }
        return ExitStatus.failure
    }
}
