import Foundation
import ObjectGraph

/// `objectgraph convert SRC DST [--force]`: JSON to binary and back, keeping everything.
enum ConvertCommand {
    static let command = Command(
        name: "convert",
        summary: "Write a store file's data as a store of the other kind (JSON <-> binary).",
        arguments: ["SRC", "DST"],
        options: [.flag("--force", help: "Replace DST if it exists.")],
        discussion: """
            Reads SRC (either kind) and writes its data to DST as a JSON store if DST's name ends
            in .json, and as a binary store otherwise, keeping every object's key, version and
            values and every entity's next key. SRC is only read; an incomplete last save in a
            binary SRC is left out, as opening the store would. DST is written atomically, under
            the store's lock, and an existing DST is only replaced with --force.

            Example: objectgraph convert fruits.store fruits.json
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let (sourcePath, destinationPath) = (arguments.positionals[0], arguments.positionals[1])
        let source = URL(fileURLWithPath: sourcePath)
        let destination = URL(fileURLWithPath: destinationPath)
        let summary = try StoreFileInspector.convert(
            source, to: destination, replacingExisting: arguments.flag("--force"))
        if let offset = summary.droppedTornTailOffset {
            output.errorLine(
                "objectgraph convert: warning: left out an incomplete last save of \(sourcePath) "
                    + "(\(summary.bytesBefore - offset) bytes from byte \(offset))")
        }
        output.line(
            "converted \(sourcePath) (\(summary.sourceKind), \(summary.bytesBefore) bytes) to \(destinationPath) "
                + "(\(summary.destinationKind), \(summary.bytesAfter) bytes): "
                + InspectCommand.plural(summary.objectCount, "object"))
        return ExitStatus.success
    }
}
