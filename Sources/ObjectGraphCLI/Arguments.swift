/// An option a command accepts: a flag (`--force`) or an option with a value
/// (`--entity NAME` or `--entity=NAME`).
struct Option: Sendable {
    /// The option's spelling, with its dashes: `--entity`.
    var name: String
    /// The placeholder for its value in help texts (`NAME`), or `nil` for a flag.
    var valueName: String?
    /// One line for the help text.
    var help: String

    /// A flag: present or not.
    static func flag(_ name: String, help: String) -> Option {
        Option(name: name, valueName: nil, help: help)
    }

    /// An option that takes a value.
    static func value(_ name: String, _ valueName: String, help: String) -> Option {
        Option(name: name, valueName: valueName, help: help)
    }
}

/// A command line after parsing against a command's options: its positional arguments, flags
/// and option values.
struct Arguments: Equatable {
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// The flags given.
    var flags: Set<String> = []
    /// The options given with their values, by option name.
    var values: [String: String] = [:]
    /// Whether `--help` or `-h` was given.
    var wantsHelp = false

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of the option `name`, if it was given.
    func value(_ name: String) -> String? { values[name] }

    /// Parses the arguments that follow a command's name.
    ///
    /// Options may come before, between or after the positional arguments; `--` ends the options
    /// (a file named `--force` is then `-- --force`); `-` alone is a positional argument. With
    /// `--help` or `-h` anywhere before `--`, nothing else is checked.
    ///
    /// - Throws: `UsageError` for an unknown option, a missing or unexpected option value, an
    ///   option given twice, and too few or too many positional arguments.
    init(parsing arguments: [String], for command: Command) throws(UsageError) {
        let beforeSeparator = arguments.prefix { $0 != "--" }
        if beforeSeparator.contains("--help") || beforeSeparator.contains("-h") {
            wantsHelp = true
            return
        }
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else {
                try parseOption(argument, remaining: &remaining, command: command)
            }
        }
        if positionals.count < command.arguments.count {
            throw .missingArgument(command.arguments[positionals.count], command: command)
        }
        if positionals.count > command.arguments.count {
            throw .unexpectedArgument(positionals[command.arguments.count], command: command)
        }
    }

    private mutating func parseOption(_ argument: String, remaining: inout ArraySlice<String>, command: Command)
        throws(UsageError)
    {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let inlineValue = parts.count > 1 ? String(parts[1]) : nil
        guard let option = command.options.first(where: { $0.name == name }) else {
            throw .unknownOption(name, command: command)
        }
        guard !flags.contains(name), values[name] == nil else { throw .repeatedOption(option, command: command) }
        guard option.valueName != nil else {
            if inlineValue != nil { throw .unexpectedValue(option, command: command) }
            flags.insert(name)
            return
        }
        if let inlineValue {
            values[name] = inlineValue
        } else if let next = remaining.first, !next.hasPrefix("-") || next == "-" {
            values[name] = remaining.removeFirst()
        } else {
            throw .missingValue(option, command: command)
        }
    }
}
