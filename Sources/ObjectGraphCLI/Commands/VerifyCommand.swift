import Foundation
import ObjectGraph

/// `objectgraph verify FILE`: checks the whole file without changing it.
enum VerifyCommand {
    static let command = Command(
        name: "verify",
        summary: "Check a store file completely; print ok, or its first problem and byte offset.",
        arguments: ["FILE"],
        discussion: """
            Checks FILE without modifying or locking it. For a binary store: the header, its
            format version and checksum, every frame's length and checksum, every record in every
            frame, and every relationship's target; an incomplete last frame (a save that a crash
            interrupted) is a problem. For a JSON store: the whole document against its schema.

            Prints "ok" and exits with 0 when the file is sound; otherwise prints the first
            problem, with the byte offset where it starts, and exits with 1.

            Example: objectgraph verify fruits.store
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let url = URL(fileURLWithPath: arguments.positionals[0])
        guard let problem = StoreFileInspector.verify(url) else {
            output.line("ok")
            return ExitStatus.success
        }
        output.errorLine("objectgraph verify: \(CommandLineTool.oneLine(problem))")
        return ExitStatus.failure
    }
}
