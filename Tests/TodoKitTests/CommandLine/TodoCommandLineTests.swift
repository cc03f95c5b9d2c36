import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing
import TodoKit

// The command line end to end, run in process against store files in a temporary directory.

@Suite struct TodoCommandLineTests {
    // MARK: - A session on a JSON store file

    @Test func sessionOnAJSONFile() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("todo.json")
            func todo(_ arguments: String...) -> TodoRun {
                TodoRun(["--file", file.path] + arguments, environment: [:])
            }
            #expect(todo("list").output == ["no items: add one with 'todo add TITLE'"])
            #expect(todo("add", "Buy milk", "--detail", "2 litres").output == ["added 1: Buy milk"])
            #expect(todo("add", "Call", "Ann").output == ["added 2: Call Ann"])
            #expect(todo("add", "Water the fern").output == ["added 3: Water the fern"])
            #expect(todo("done", "2").output == ["done 2: Call Ann"])
            #expect(todo("rm", "1").output == ["removed 1: Buy milk"])
            let list = todo("list")
            #expect(list.status == 0 && list.errors.isEmpty)
            #expect(list.output == ["1. [x] Call Ann", "2. [ ] Water the fern"])
            #expect(todo("undone", "1").output == ["not done 1: Call Ann"])

            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.hasPrefix("{") && text.contains("\"title\": \"Water the fern\""))
            let container = try PersistentContainer(model: try TodoItem.makeModel(), storeDescription: .jsonFile(file))
            try container.expectStore(
                holds: "TodoItem",
                [["title": "Call Ann", "isDone": false], ["title": "Water the fern", "detail": ""]])
        }
    }

    @Test func defaultStoreIsCreatedInTheDataDirectory() throws {
        try withTemporaryDirectory { directory in
            let environment = ["XDG_DATA_HOME": directory.path]
            #expect(TodoRun(["add", "Buy milk"], environment: environment).status == 0)
            #expect(TodoRun(["--store", "json", "add", "Call Ann"], environment: environment).status == 0)
            let folder = directory.appendingPathComponent("objectgraph-todo")
            let binary = try Data(contentsOf: folder.appendingPathComponent("todo.ogdb"))
            #expect(binary.starts(with: Array("OGRAPHDB".utf8)))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("todo.json").path))
            #expect(TodoRun(["list"], environment: environment).output == ["1. [ ] Buy milk"])
            #expect(TodoRun(["list", "--store", "json"], environment: environment).output == ["1. [ ] Call Ann"])

            let home = ["HOME": directory.path]
            #expect(TodoRun(["add", "At home"], environment: home).status == 0)
            #expect(
                FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent(".local/share/objectgraph-todo/todo.ogdb").path))
        }
    }

    @Test func memoryAndNullStoresKeepNothing() throws {
        try withTemporaryDirectory { directory in
            let environment = ["XDG_DATA_HOME": directory.path]
            for store in ["memory", "null"] {
                #expect(
                    TodoRun(["--store", store, "add", "Buy milk"], environment: environment).output == [
                        "added 1: Buy milk"
                    ])
                #expect(
                    TodoRun(["--store", store, "list"], environment: environment).output.first?.hasPrefix("no items")
                        == true)
            }
            let leftOver = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(leftOver.isEmpty)
        }
    }

    // MARK: - Bad input: one line on standard error, a non-zero status

    @Test func wrongCommandLinesExitWithTwo() throws {
        try withTemporaryDirectory { directory in
            let environment = ["XDG_DATA_HOME": directory.path]
            for arguments in [
                ["frob"], ["add"], ["done", "x"], ["list", "--verbose"], [],
                ["--store", "memory", "--file", "x", "list"],
            ] {
                let run = TodoRun(arguments, environment: environment)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.output.isEmpty)
                #expect(run.errors.count == 1 && run.errors[0].hasPrefix("todo: "), "\(run.errors)")
            }
            let noHome = TodoRun(["list"], environment: [:])
            #expect(noHome.status == 2 && noHome.errors.count == 1)
            let leftOver = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(leftOver.isEmpty)
        }
    }

    @Test func numbersOutOfRangeExitWithOne() throws {
        try withTemporaryDirectory { directory in
            let environment = ["XDG_DATA_HOME": directory.path]
            _ = TodoRun(["add", "Buy milk"], environment: environment)
            for command in ["done", "undone", "rm"] {
                let run = TodoRun([command, "2"], environment: environment)
                #expect(run.status == 1)
                #expect(run.errors == ["todo: there is no item 2: the list has 1 item"])
            }
            #expect(TodoRun(["list"], environment: environment).output == ["1. [ ] Buy milk"])
        }
    }

    @Test func aDamagedStoreFileIsOneLineAndExitOne() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("todo.json")
            try Data("{ not json".utf8).write(to: file)
            let run = TodoRun(["--file", file.path, "list"], environment: [:])
            #expect(run.status == 1)
            #expect(
                run.errors.count == 1 && run.errors[0].hasPrefix("todo: the list could not be read"), "\(run.errors)")
            #expect(try String(contentsOf: file, encoding: .utf8) == "{ not json")
        }
    }

    @Test func aStoreInUseElsewhereIsOneLineAndExitOne() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("todo.ogdb")
            let holder = try PersistentContainer(model: try TodoItem.makeModel(), storeDescription: .binaryFile(file))
            let run = TodoRun(["--file", file.path, "add", "Buy milk"], environment: [:])
            #expect(run.status == 1)
            #expect(run.errors.count == 1 && run.errors[0].contains("is open in another container"), "\(run.errors)")
            #expect(try TodoList(container: holder).items.isEmpty)
        }
    }

    @Test func aMissingDirectoryForFileIsReported() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("nowhere/todo.ogdb")
            let run = TodoRun(["--file", file.path, "add", "x"], environment: [:])
            #expect(run.status == 1 && run.errors.count == 1, "\(run.errors)")
        }
    }

    @Test func helpGoesToStandardOutput() {
        let run = TodoRun(["--help"], environment: [:])
        #expect(run.status == 0 && run.errors.isEmpty)
        #expect(run.output.first == "todo: a to-do list kept in an ObjectGraph store.")
        #expect(run.output.contains { $0.contains("--store memory|json|binary|null") })
    }

    // MARK: - The README

    /// The README's todo session runs as shown, on a fresh data directory.
    @Test func readmeSessionPrintsWhatTheReadmeShows() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Example: todo\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```console\n").dropFirst().first)
        let lines = try #require(block.components(separatedBy: "\n```").first).components(separatedBy: "\n")
        var session: [(arguments: [String], output: [String])] = []
        for line in lines {
            if line.hasPrefix("$ swift run todo ") {
                session.append((Self.words(String(line.dropFirst("$ swift run todo ".count))), []))
            } else {
                try #require(!session.isEmpty, "a line before the first command: \(line)")
                session[session.count - 1].output.append(line)
            }
        }
        #expect(session.count == 7)
        try withTemporaryDirectory { directory in
            for (arguments, expected) in session {
                let run = TodoRun(arguments, environment: ["XDG_DATA_HOME": directory.path])
                #expect(run.output + run.errors == expected, "todo \(arguments)")
            }
        }
    }

    /// Splits a shell command line into words, with double quotes.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                word = word ?? ""
            } else if character == " " && !quoted {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let word { words.append(word) }
        return words
    }
}
