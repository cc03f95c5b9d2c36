import Foundation
import ObjectGraph
import Testing
import TodoKit

@Suite struct InvocationTests {
    // MARK: - Command lines that parse

    @Test(arguments: [
        (["list"], Invocation(action: .list)),
        (["ls"], Invocation(action: .list)),
        (["add", "Buy milk"], Invocation(action: .add(title: "Buy milk", detail: ""))),
        (["add", "Buy", "milk"], Invocation(action: .add(title: "Buy milk", detail: ""))),
        (["add", "Buy milk", "--detail", "2 litres"], Invocation(action: .add(title: "Buy milk", detail: "2 litres"))),
        (
            ["add", "--detail=-2 °C", "Check the freezer"],
            Invocation(action: .add(title: "Check the freezer", detail: "-2 °C"))
        ),
        (["add", "--", "--fix the dashes"], Invocation(action: .add(title: "--fix the dashes", detail: ""))),
        (["done", "2"], Invocation(action: .done(2))),
        (["undone", "2"], Invocation(action: .undone(2))),
        (["rm", "3"], Invocation(action: .remove(3))),
        (["remove", "3"], Invocation(action: .remove(3))),
        (["--store", "json", "list"], Invocation(action: .list, store: .json)),
        (["list", "--store=memory"], Invocation(action: .list, store: .memory)),
        (["--file", "/tmp/a.json", "list"], Invocation(action: .list, file: "/tmp/a.json")),
        (
            ["--store", "binary", "--file", "a.store", "done", "1"],
            Invocation(action: .done(1), store: .binary, file: "a.store")
        ),
        (["--help"], Invocation(action: .help)),
        (["done", "x", "-h"], Invocation(action: .help)),
        (["help"], Invocation(action: .help)),
    ])
    func parses(arguments: [String], expected: Invocation) throws {
        #expect(try Invocation(parsing: arguments) == expected)
    }

    // MARK: - Command lines that do not

    @Test(arguments: [
        ([], "missing command: try 'todo --help'"),
        (["frob"], "unknown command 'frob': use add, list, done, undone or rm"),
        (["add"], "add: missing title"),
        (["add", " "], "add: missing title"),
        (["add", "--detail", "2 litres"], "add: missing title"),
        (["add", "x", "--detail"], "option '--detail' needs a value"),
        (["add", "x", "--detail", "a", "--detail", "b"], "option '--detail' is given twice"),
        (["list", "--detail", "a"], "--detail goes with 'add' only"),
        (["list", "everything"], "list: unexpected argument 'everything'"),
        (["done"], "done: missing item number"),
        (["done", "x"], "done: the item number must be a whole number from 1, not 'x'"),
        (["rm", "0"], "rm: the item number must be a whole number from 1, not '0'"),
        (["rm", "-1"], "rm: the item number must be a whole number from 1, not '-1'"),
        (["done", "1", "2"], "done: unexpected argument '2'"),
        (["list", "--verbose"], "unknown option '--verbose'"),
        (["--store", "sqlite", "list"], "unknown store 'sqlite': use one of memory, json, binary, null"),
        (
            ["--store", "memory", "--file", "a.json", "list"],
            "--file needs a file store (--store json or binary), not 'memory'"
        ),
    ])
    func refuses(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try Invocation(parsing: arguments) }
        #expect(error?.message == message)
    }

    // MARK: - Where the store is

    @Test func defaultStoreIsBinaryInTheXDGDataDirectory() throws {
        let environment = ["XDG_DATA_HOME": "/data", "HOME": "/home/ann"]
        #expect(
            try Invocation(action: .list).storeDescription(environment: environment)
                == .binaryFile(URL(fileURLWithPath: "/data/objectgraph-todo/todo.ogdb")))
        #expect(
            try Invocation(action: .list, store: .json).storeDescription(environment: environment)
                == .jsonFile(URL(fileURLWithPath: "/data/objectgraph-todo/todo.json")))
    }

    @Test func withoutXDGDataHomeTheStoreIsUnderHome() throws {
        for environment in [["HOME": "/home/ann"], ["HOME": "/home/ann", "XDG_DATA_HOME": "relative"]] {
            #expect(
                try Invocation(action: .list).storeDescription(environment: environment)
                    == .binaryFile(URL(fileURLWithPath: "/home/ann/.local/share/objectgraph-todo/todo.ogdb")))
        }
        let error = #expect(throws: UsageError.self) {
            try Invocation(action: .list).storeDescription(environment: [:])
        }
        #expect(error?.message.contains("set HOME or XDG_DATA_HOME") == true)
    }

    @Test func fileStoreKindFollowsStoreOptionThenExtension() throws {
        func description(_ store: Invocation.StoreKind?, _ file: String) throws -> StoreDescription {
            try Invocation(action: .list, store: store, file: file).storeDescription(environment: [:])
        }
        let json = URL(fileURLWithPath: "/tmp/list.json")
        let other = URL(fileURLWithPath: "/tmp/list.db")
        #expect(try description(nil, json.path) == .jsonFile(json))
        #expect(try description(nil, other.path) == .binaryFile(other))
        #expect(try description(.binary, json.path) == .binaryFile(json))
        #expect(try description(.json, other.path) == .jsonFile(other))
        #expect(try Invocation(action: .list, store: .memory).storeDescription(environment: [:]) == .inMemory)
        #expect(try Invocation(action: .list, store: .null).storeDescription(environment: [:]) == .discard)
    }
}
