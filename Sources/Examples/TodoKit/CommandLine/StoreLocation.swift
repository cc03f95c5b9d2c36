import Foundation
import ObjectGraph

extension Invocation {
    /// The store this invocation names, given the process environment.
    ///
    /// - `--store memory` and `--store null`: an in-memory store (gone when the command ends) and
    ///   the discard store (`/dev/null`).
    /// - `--file PATH`: that file, JSON or binary as `--store` says, or else as its extension
    ///   says (`.json` is JSON, anything else binary).
    /// - Otherwise a file in the user's data directory: `$XDG_DATA_HOME` (when set to an
    ///   absolute path) or `$HOME/.local/share`, then `objectgraph-todo/todo.ogdb` (binary, the
    ///   default) or `objectgraph-todo/todo.json`.
    ///
    /// - Throws: ``UsageError`` when the data directory cannot be found (no `HOME`).
    public func storeDescription(environment: [String: String]) throws(UsageError) -> StoreDescription {
        switch store {
        case .memory: return .inMemory
        case .null: return .discard
        case .json, .binary, nil: break
        }
        if let file {
            let url = URL(fileURLWithPath: file)
            switch store {
            case .json: return .jsonFile(url)
            case .binary: return .binaryFile(url)
            default: return url.pathExtension.lowercased() == "json" ? .jsonFile(url) : .binaryFile(url)
            }
        }
        let directory = try Self.dataDirectory(environment: environment)
        return store == .json
            ? .jsonFile(directory.appendingPathComponent("todo.json"))
            : .binaryFile(directory.appendingPathComponent("todo.ogdb"))
    }

    /// `objectgraph-todo` in the user's data directory, as the XDG base directory specification
    /// places it.
    static func dataDirectory(environment: [String: String]) throws(UsageError) -> URL {
        let base: URL
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            base = URL(fileURLWithPath: dataHome, isDirectory: true)
        } else if let home = environment["HOME"], !home.isEmpty {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        } else {
            throw UsageError("cannot find the data directory: set HOME or XDG_DATA_HOME, or give --file PATH")
        }
        return base.appendingPathComponent("objectgraph-todo", isDirectory: true)
    }
}
