import Foundation
import ObjectGraph
import Testing

/// Keeps the README's command-line section honest: every command in its console block runs, in
/// order, on the store the block describes, and prints exactly what the block shows.
@Suite struct ReadmeCommandLineTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The console block's commands, each with the lines it prints.
    static func session() throws -> [(command: [String], output: [String])] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Command-line tool\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```console\n").dropFirst().first)
        let lines = try #require(block.components(separatedBy: "\n```").first).components(separatedBy: "\n")
        var session: [(command: [String], output: [String])] = []
        for line in lines {
            if line.hasPrefix("$ ") {
                let words = line.dropFirst(2).split(separator: " ").map(String.init)
                session.append((Array(words.drop { $0 == "swift" || $0 == "run" }), []))
            } else if !session.isEmpty {
                session[session.count - 1].output.append(line)
            }
        }
        return session
    }

    /// The store the README describes: two fruits, then a second save changing the pear's price.
    static func makeFruitsStore(in directory: URL) throws {
        let fruit = EntityDescription(
            name: "Fruit",
            attributes: [
                AttributeDescription(name: "name", type: .string, isIndexed: true),
                AttributeDescription(name: "price", type: .integer64),
            ])
        let model = try ManagedObjectModel(entities: [fruit])
        let url = directory.appendingPathComponent("fruits.store")
        let context = try PersistentContainer(model: model, storeDescription: .binaryFile(url)).newContext()
        let apple = ManagedObject(entity: fruit, insertInto: context)
        try apple.setValue("Apple", forKey: "name")
        try apple.setValue(120, forKey: "price")
        let pear = ManagedObject(entity: fruit, insertInto: context)
        try pear.setValue("Pear", forKey: "name")
        try pear.setValue(80, forKey: "price")
        try context.save()
        try pear.setValue(99, forKey: "price")
        try context.save()
    }

    @Test func consoleSessionPrintsWhatTheReadmeShows() throws {
        let directory = TemporaryDirectory.make()
        try Self.makeFruitsStore(in: directory)
        let session = try Self.session()
        #expect(
            session.map { $0.command.dropFirst().first ?? "" } == [
                "--help", "inspect", "dump", "verify", "convert", "compact",
            ])
        for (command, expected) in session {
            #expect(command.first == "objectgraph")
            let arguments = command.dropFirst().map { word in
                word.hasSuffix(".store") || word.hasSuffix(".json") ? directory.appendingPathComponent(word).path : word
            }
            let run = objectgraph(arguments)
            #expect(run.status == 0, "\(command)")
            #expect(run.error.isEmpty, "\(command)")
            if !expected.isEmpty {
                let output = run.outputLines.map { $0.replacingOccurrences(of: directory.path + "/", with: "") }
                #expect(output == expected, "\(command)")
            }
        }
    }
}
