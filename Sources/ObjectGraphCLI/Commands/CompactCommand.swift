import Foundation
import ObjectGraph

/// `objectgraph compact FILE`: rewrites the store in place, compactly.
enum CompactCommand {
    static let command = Command(
        name: "compact",
        summary: "Rewrite a store file compactly, in place and atomically.",
        arguments: ["FILE"],
        discussion: """
            Rewrites a binary store as its header and one frame holding every object, dropping
            superseded and deleted records and any incomplete last save; rewrites a JSON store in
            its canonical form. Keys, versions, values and next keys are kept. The store's lock is
            held throughout: a store that an app has open is refused. The new file replaces the
            old one atomically, so a crash leaves one or the other.

            Example: objectgraph compact fruits.store
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let path = arguments.positionals[0]
        let summary = try StoreFileInspector.compact(URL(fileURLWithPath: path))
        guard summary.wroteFile else {
            output.line("\(path) is already compact (\(summary.bytesBefore) bytes)")
            return ExitStatus.success
        }
        var line = "compacted \(path): \(summary.bytesBefore) -> \(summary.bytesAfter) bytes"
        if let frames = summary.framesBefore { line += ", \(frames) -> 1 frames" }
        if let offset = summary.droppedTornTailOffset {
            line += ", cut an incomplete last save at byte \(offset)"
        }
        output.line(line)
        return ExitStatus.success
    }
}
