import ObjectGraph

/// The `objectgraph` tool: reads the command line, runs one command and returns the exit status.
///
/// Everything the tool prints goes through an ``Output``, so that tests can run every command in
/// process and read what it printed. Nothing here calls `exit` or traps on bad input: a wrong
/// command line prints one line and returns 2, a failed command prints its error as one line and
/// returns 1.
///
/// For example, the executable's whole `main.swift`:
/// ```swift
/// exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), output: .standardStreams()))
/// ```
public enum CommandLineTool {
    static let commands: [Command] = [
        InspectCommand.command, DumpCommand.command, VerifyCommand.command, ConvertCommand.command,
        CompactCommand.command, DiffCommand.command, MigrateCommand.command, GenerateCommand.command,
        DiagramCommand.command,
    ]

    static var commandNames: String { commands.map(\.name).joined(separator: ", ") }

    /// Runs the command line `arguments` (without the program name) and returns the exit status:
    /// 0 on success, 1 when the command failed (or `verify` found a problem), 2 for a wrong
    /// command line.
    public static func run(_ arguments: [String], output: Output) -> Int32 {
        defer { output.flush() }
        guard let first = arguments.first else {
            output.trustedText(help, toError: true)
            return ExitStatus.usage
        }
        switch first {
        case "--help", "-h":
            output.trustedText(help)
            return ExitStatus.success
        case "help":
            return showHelp(Array(arguments.dropFirst()), output: output)
        default: break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let error = first.hasPrefix("-") ? UsageError.unknownOption(first, command: nil) : .unknownCommand(first)
            output.errorLine("objectgraph: \(error.message)")
            return ExitStatus.usage
        }
        return run(command, Array(arguments.dropFirst()), output: output)
    }

    private static func run(_ command: Command, _ arguments: [String], output: Output) -> Int32 {
        do {
            let parsed = try Arguments(parsing: arguments, for: command)
            if parsed.wantsHelp {
                output.trustedText(command.help)
                return ExitStatus.success
            }
            return try command.run(parsed, output)
        } catch let error as UsageError {
            output.errorLine("objectgraph \(command.name): \(error.message)")
            return ExitStatus.usage
        } catch let error as PersistenceError {
            output.errorLine("objectgraph \(command.name): \(oneLine(error))")
            return ExitStatus.failure
        } catch {
            output.errorLine("objectgraph \(command.name): \(oneLine(String(describing: error)))")
            return ExitStatus.failure
        }
    }

    /// `objectgraph help [COMMAND]`.
    private static func showHelp(_ arguments: [String], output: Output) -> Int32 {
        guard let name = arguments.first else {
            output.trustedText(help)
            return ExitStatus.success
        }
        guard arguments.count == 1, let command = commands.first(where: { $0.name == name }) else {
            let error =
                arguments.count == 1
                ? UsageError.unknownCommand(name)
                : UsageError(
                    message: "unexpected argument '\(arguments[1])': usage: objectgraph help [COMMAND].")
            output.errorLine("objectgraph help: \(error.message)")
            return ExitStatus.usage
        }
        output.trustedText(command.help)
        return ExitStatus.success
    }

    /// An error as one line: its code, then its message.
    static func oneLine(_ error: PersistenceError) -> String {
        oneLine("\(error.code): \(error.message)")
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The tool's help: what it is, its commands, its exit statuses.
    static var help: String {
        let width = commands.map(\.name.count).max() ?? 0
        let list = commands.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count) + "  " + command.summary
        }
        return """
            objectgraph: inspect, check and convert ObjectGraph store files, without the app that wrote them;
            turn Xcode Core Data models into Swift classes and diagrams.

            Usage: objectgraph COMMAND [ARGUMENTS] [OPTIONS]

            Commands:
            \(list.joined(separator: "\n"))

            A store file's kind is read from its first bytes: a binary store starts with OGRAPHDB, a
            JSON store with '{'. Every file carries its schema, so no model is needed. Reading
            commands (inspect, dump, verify) never modify the file.

            Exit status: 0 on success, 1 when a command fails or verify finds a problem, 2 for a wrong
            command line.

            See 'objectgraph COMMAND --help' (or 'objectgraph help COMMAND') for a command's options.
            """
    }
}
