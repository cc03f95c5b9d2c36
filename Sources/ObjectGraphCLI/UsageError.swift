/// A command line the tool cannot run: an unknown command or option, a missing or extra
/// argument. The tool prints it as one line and exits with status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, and where to look for the right usage.
    var message: String

    var description: String { message }

    static func unknownCommand(_ name: String) -> UsageError {
        UsageError(
            message: "unknown command '\(name)'; the commands are \(CommandLineTool.commandNames). "
                + "See 'objectgraph --help'.")
    }

    static func unknownOption(_ option: String, command: Command?) -> UsageError {
        UsageError(message: "unknown option '\(option)'\(context(command)). See '\(helpCommand(command))'.")
    }

    static func missingValue(_ option: Option, command: Command) -> UsageError {
        UsageError(
            message: "the option '\(option.name)' needs a value (\(option.name) \(option.valueName ?? "VALUE")). "
                + "See '\(helpCommand(command))'.")
    }

    static func unexpectedValue(_ option: Option, command: Command) -> UsageError {
        UsageError(message: "the option '\(option.name)' takes no value. See '\(helpCommand(command))'.")
    }

    static func repeatedOption(_ option: Option, command: Command) -> UsageError {
        UsageError(message: "the option '\(option.name)' is given twice. See '\(helpCommand(command))'.")
    }

    static func missingArgument(_ name: String, command: Command) -> UsageError {
        UsageError(message: "missing \(name): usage: \(command.usage). See '\(helpCommand(command))'.")
    }

    static func unexpectedArgument(_ argument: String, command: Command) -> UsageError {
        UsageError(
            message: "unexpected argument '\(argument)': usage: \(command.usage). See '\(helpCommand(command))'.")
    }

    private static func context(_ command: Command?) -> String {
        command.map { " for '\($0.name)'" } ?? ""
    }

    private static func helpCommand(_ command: Command?) -> String {
        command.map { "objectgraph \($0.name) --help" } ?? "objectgraph --help"
    }
}
