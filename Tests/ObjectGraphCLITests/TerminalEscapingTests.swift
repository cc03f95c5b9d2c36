import Foundation
import ObjectGraph
import Testing

/// Names and messages from a store file are data: the tool never writes their control
/// characters (escape sequences, newlines) to the terminal raw.
@Suite struct TerminalEscapingTests {
    /// A JSON store whose entity `Fruit` is renamed to a name carrying escape sequences (a colour,
    /// a hidden link) and a newline that forges a line.
    static func hostileStore() throws -> URL {
        let url = try StoreFixtures.makeStore(.json)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"Fruit\"",
            with: "\"Fr\\u001b[31muit\\u001b]8;;http://evil/\\u0007\\nentity Forged: 0 objects\"")
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    @Test func inspectEscapesControlCharactersInNames() throws {
        let url = try Self.hostileStore()
        let run = objectgraph("inspect", url.path)
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(run.output.contains("entity Fr\\u001b[31muit"))
        #expect(!run.outputLines.contains("entity Forged: 0 objects"))
    }

    @Test func errorMessagesEscapeControlCharacters() throws {
        let url = try Self.hostileStore()
        let run = objectgraph("dump", url.path, "--entity", "\u{1B}[2JWiped")
        #expect(run.status != 0)
        #expect(!run.error.unicodeScalars.contains { $0.value == 0x1B })
        #expect(run.error.contains("\\u001b[2JWiped"))
        #expect(run.error.contains("Fr\\u001b[31muit"))
        #expect(run.error.split(separator: "\n").count == 1)
    }

    @Test func helpKeepsItsLines() {
        let run = objectgraph("--help")
        #expect(run.outputLines.count > 3)
    }
}
