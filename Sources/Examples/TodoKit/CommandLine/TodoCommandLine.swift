import Foundation
import ObjectGraph

/// The `todo` command: parses a command line, runs it on the store it names and returns the
/// exit status. Tests run it in process with their own environment and output.
///
/// Exit status: 0 on success, 1 when the command failed (no such item, a store that cannot be
/// opened or saved), 2 for a wrong command line. Every error is one line on standard error.
///
/// For example, the executable's whole `main.swift`:
/// ```swift
/// exit(TodoCommandLine().run(Array(CommandLine.arguments.dropFirst())))
/// ```
public struct TodoCommandLine {
    /// The environment variables (for `HOME` and `XDG_DATA_HOME`).
    public var environment: [String: String]
    /// Writes one line to standard output.
    public var printLine: (String) -> Void
    /// Writes one line to standard error.
    public var printError: (String) -> Void

    /// A command line over the process's environment and standard streams, or others for tests.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        printLine: @escaping (String) -> Void = { print($0) },
        printError: @escaping (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.environment = environment
        self.printLine = printLine
        self.printError = printError
    }

    /// Runs `arguments` (without the program name) and returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        let invocation: Invocation
        let description: StoreDescription
        do {
            invocation = try Invocation(parsing: arguments)
            if invocation.action == .help {
                printLine(Self.help)
                return 0
            }
            description = try invocation.storeDescription(environment: environment)
        } catch {
            printError("todo: \(error.message)")
            return 2
        }
        let list: TodoList
        do {
            try prepareDirectory(for: description, invocation: invocation)
            list = try TodoList.open(description)
        } catch {
            printError("todo: \(error)")
            return 1
        }
        do {
            try perform(invocation.action, on: list)
            return 0
        } catch .noSuchItem(let number) {
            let count = (try? list.items.count) ?? 0
            printError("todo: there is no item \(number): the list has \(count == 1 ? "1 item" : "\(count) items")")
            return 1
        } catch {
            printError("todo: \(error)")
            return 1
        }
    }

    private func perform(_ action: Invocation.Action, on list: TodoList) throws(TodoError) {
        switch action {
        case .help:
            printLine(Self.help)
        case .add(let title, let detail):
            let item = try list.add(title: title, detail: detail)
            let number = try list.items.firstIndex(of: item).map { $0 + 1 } ?? 0
            printLine("added \(number): \(item.title)")
        case .list:
            let items = try list.items
            if items.isEmpty { printLine("no items: add one with 'todo add TITLE'") }
            for (index, item) in items.enumerated() {
                printLine(Self.line(for: item, number: index + 1))
            }
        case .done(let number):
            printLine("done \(number): \(try list.markDone(number: number).title)")
        case .undone(let number):
            printLine("not done \(number): \(try list.markDone(number: number, false).title)")
        case .remove(let number):
            printLine("removed \(number): \(try list.remove(number: number))")
        }
    }

    /// One item as `list` shows it: `2. [x] Call Ann`, and its detail indented below.
    static func line(for item: TodoItem, number: Int) -> String {
        let head = "\(number). [\(item.isDone ? "x" : " ")] \(item.title)"
        guard !item.detail.isEmpty else { return head }
        let indent = String(repeating: " ", count: "\(number). [ ] ".count)
        let detail = item.detail.split(separator: "\n", omittingEmptySubsequences: false)
            .map { indent + $0 }.joined(separator: "\n")
        return head + "\n" + detail
    }

    /// The default store's directory is created on first use; a `--file` path's is not.
    private func prepareDirectory(for description: StoreDescription, invocation: Invocation) throws {
        guard invocation.file == nil, let url = description.url else { return }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    }

    /// `todo --help`.
    public static let help = """
        todo: a to-do list kept in an ObjectGraph store.

        Usage: todo [OPTIONS] COMMAND

        Commands:
          add TITLE [--detail TEXT]  add an item at the end of the list
          list                       show the items, numbered from 1, oldest first
          done N                     mark item N as done
          undone N                   mark item N as not done
          rm N                       remove item N (the items after it move up)

        Options:
          --store memory|json|binary|null  the kind of store (default: binary; memory and
                                           null keep nothing after the command)
          --file PATH                      the store file (JSON for a .json path unless --store
                                           says otherwise)
          -h, --help                       show this help

        Without --file the store is $XDG_DATA_HOME/objectgraph-todo/todo.ogdb (or todo.json),
        with ~/.local/share when XDG_DATA_HOME is not set.

        Exit status: 0 on success, 1 when a command fails, 2 for a wrong command line.
        """
}
