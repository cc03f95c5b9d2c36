import ObjectGraphCLI

/// What one run of the tool printed and returned.
struct ToolRun {
    var status: Int32
    var output: String
    var error: String

    /// Standard output's lines, without the final empty one.
    var outputLines: [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// Runs `objectgraph` with `arguments` in process and collects what it printed.
func objectgraph(_ arguments: String...) -> ToolRun {
    objectgraph(arguments)
}

func objectgraph(_ arguments: [String]) -> ToolRun {
    final class Collected {
        var output: [UInt8] = []
        var error: [UInt8] = []
    }
    let collected = Collected()
    let status = CommandLineTool.run(
        arguments,
        output: Output(
            standardOutput: { collected.output += $0 }, standardError: { collected.error += $0 }))
    return ToolRun(
        status: status, output: String(decoding: collected.output, as: UTF8.self),
        error: String(decoding: collected.error, as: UTF8.self))
}
