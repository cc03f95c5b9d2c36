import Foundation
import TodoKit

/// What one run of the `todo` command did: its exit status and the lines it printed.
struct TodoRun {
    var status: Int32
    var output: [String]
    var errors: [String]

    /// Runs the command line in process, with `environment` instead of the process's.
    init(_ arguments: [String], environment: [String: String]) {
        final class Lines { var output: [String] = [], errors: [String] = [] }
        let lines = Lines()
        let commandLine = TodoCommandLine(
            environment: environment,
            printLine: { lines.output += $0.components(separatedBy: "\n") },
            printError: { lines.errors += $0.components(separatedBy: "\n") })
        status = commandLine.run(arguments)
        output = lines.output
        errors = lines.errors
    }
}

/// Runs `body` with a new, empty directory, and removes it afterwards. Each test makes its own,
/// so tests can run in parallel.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "todo-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}
