/// One subcommand of the tool: its name, help text, arguments and options, and what it does.
struct Command: Sendable {
    /// The word that selects the command: `inspect`.
    var name: String
    /// One line for the tool's command list.
    var summary: String
    /// The names of the positional arguments, all required: `["FILE"]`.
    var arguments: [String]
    /// The options the command accepts (`--help` is always accepted).
    var options: [Option] = []
    /// Paragraphs for the command's help, after its usage line.
    var discussion: String
    /// Runs the command and returns the exit status.
    var run: @Sendable (Arguments, Output) throws -> Int32

    /// The usage line: `objectgraph dump FILE [--entity NAME]`.
    var usage: String {
        let options = self.options.map { option in
            "[\(option.name)\(option.valueName.map { " \($0)" } ?? "")]"
        }
        return (["objectgraph", name] + arguments + options).joined(separator: " ")
    }

    /// The full help text.
    var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n\n\(discussion)\n\nOptions:\n"
        let rows =
            options.map { option in
                (option.name + (option.valueName.map { " \($0)" } ?? ""), option.help)
            } + [("-h, --help", "Show this help.")]
        let width = rows.map(\.0.count).max() ?? 0
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count) + "  " + right + "\n"
        }
        return text
    }
}

/// The exit statuses of the tool.
enum ExitStatus {
    /// The command did what was asked; `verify` found the file sound.
    static let success: Int32 = 0
    /// The command failed, or `verify` found a problem.
    static let failure: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
}
