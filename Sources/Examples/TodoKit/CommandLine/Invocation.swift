/// A `todo` command line, parsed: what to do and on which store.
///
/// The grammar, with options before, between or after the words, `--name VALUE` or
/// `--name=VALUE`, and `--` ending the options:
///
/// ```
/// todo [--store memory|json|binary|null] [--file PATH] COMMAND
/// COMMAND: add TITLE… [--detail TEXT] | list | done N | undone N | rm N | help
/// ```
public struct Invocation: Equatable, Sendable {
    /// What the command line asks for.
    public enum Action: Equatable, Sendable {
        /// `--help`, `-h` or `help`: show the help.
        case help
        /// `add TITLE… [--detail TEXT]`: the words of the title, joined by spaces.
        case add(title: String, detail: String)
        /// `list` (or `ls`).
        case list
        /// `done N`.
        case done(Int)
        /// `undone N`.
        case undone(Int)
        /// `rm N` (or `remove N`).
        case remove(Int)
    }

    /// The stores `--store` names.
    public enum StoreKind: String, Equatable, Sendable, CaseIterable {
        /// A fresh in-memory store: nothing is kept after the command.
        case memory
        /// A JSON file store.
        case json
        /// A binary file store (the default).
        case binary
        /// The discard store (`/dev/null`): saves succeed and nothing is kept.
        case null
    }

    /// What to do.
    public var action: Action
    /// The store given with `--store`, if any.
    public var store: StoreKind?
    /// The path given with `--file`, if any.
    public var file: String?

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``UsageError`` for an unknown command or option, a missing title, item number
    ///   or option value, a number that is not a positive whole number, an option given twice, an
    ///   argument too many, and `--file` with a store that has no file.
    public init(parsing arguments: [String]) throws(UsageError) {
        var words: [String] = []
        var values: [String: String] = [:]
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || !Self.isOption(argument) {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                self.init(action: .help, store: nil, file: nil)
                return
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard Self.valueOptions.contains(name) else { throw UsageError("unknown option '\(name)'") }
            guard values[name] == nil else { throw UsageError("option '\(name)' is given twice") }
            if parts.count > 1 {
                values[name] = String(parts[1])
            } else if let value = remaining.popFirst() {
                values[name] = value
            } else {
                throw UsageError("option '\(name)' needs a value")
            }
        }

        var store: StoreKind?
        if let name = values["--store"] {
            guard let kind = StoreKind(rawValue: name) else {
                let names = StoreKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("unknown store '\(name)': use one of \(names)")
            }
            store = kind
        }
        let file = values["--file"]
        if file != nil, let store, store == .memory || store == .null {
            throw UsageError("--file needs a file store (--store json or binary), not '\(store.rawValue)'")
        }
        if file?.isEmpty == true { throw UsageError("--file needs a path") }

        guard let command = words.first else { throw UsageError("missing command: try 'todo --help'") }
        let operands = Array(words.dropFirst())
        if command != "add", values["--detail"] != nil {
            throw UsageError("--detail goes with 'add' only")
        }
        let action: Action
        switch command {
        case "add":
            let title = operands.joined(separator: " ")
            guard !title.allSatisfy(\.isWhitespace) else { throw UsageError("add: missing title") }
            action = .add(title: title, detail: values["--detail"] ?? "")
        case "list", "ls":
            try Self.expectNoOperands(operands, command: command)
            action = .list
        case "done": action = .done(try Self.number(operands, command: command))
        case "undone": action = .undone(try Self.number(operands, command: command))
        case "rm", "remove": action = .remove(try Self.number(operands, command: command))
        case "help":
            try Self.expectNoOperands(operands, command: command)
            action = .help
        default:
            throw UsageError("unknown command '\(command)': use add, list, done, undone or rm")
        }
        self.init(action: action, store: store, file: file)
    }

    /// An invocation with these parts.
    public init(action: Action, store: StoreKind? = nil, file: String? = nil) {
        self.action = action
        self.store = store
        self.file = file
    }

    private static let valueOptions: Set<String> = ["--store", "--file", "--detail"]

    /// Whether an argument is an option: it starts with `-`, and is neither `-` alone nor a
    /// negative number (which is a wrong item number, reported as such).
    private static func isOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "-" else { return false }
        return Int(argument) == nil
    }

    private static func expectNoOperands(_ operands: [String], command: String) throws(UsageError) {
        if let extra = operands.first { throw UsageError("\(command): unexpected argument '\(extra)'") }
    }

    /// The one item number of `done`, `undone` and `rm`.
    private static func number(_ operands: [String], command: String) throws(UsageError) -> Int {
        guard let text = operands.first else { throw UsageError("\(command): missing item number") }
        try expectNoOperands(Array(operands.dropFirst()), command: command)
        guard let number = Int(text), number > 0 else {
            throw UsageError("\(command): the item number must be a whole number from 1, not '\(text)'")
        }
        return number
    }
}

/// A wrong command line: the message says what is wrong, in one line.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
