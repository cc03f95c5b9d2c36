import Foundation
import Testing

/// Keeps the README's code honest: each of its Swift blocks must equal a region of a file that
/// the build compiles (the example executable, or a test file).
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func region(_ name: String, in relativePath: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "// \(name) begin"), let end = lines.firstIndex(of: "// \(name) end")
        else {
            throw RegionNotFound(name: name, file: relativePath)
        }
        return lines[(start + 1)..<end].joined(separator: "\n")
    }

    struct RegionNotFound: Error, CustomStringConvertible {
        let name: String
        let file: String
        var description: String { "no region '\(name)' in \(file)" }
    }

    static func readmeSwiftBlocks() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```swift\n").dropFirst().map { block in
            String(block.components(separatedBy: "\n```").first ?? "")
        }
    }

    @Test func quickStartIsTheCompiledExample() throws {
        let expected = try Self.region("README quick start", in: "Sources/Examples/Fruits/main.swift")
        #expect(try Self.readmeSwiftBlocks().contains(expected))
    }

    @Test func testingSectionIsACompiledTest() throws {
        let expected = try Self.region("README testing", in: "Tests/ObjectGraphTests/Docs/ReadmeTestingExample.swift")
        #expect(try Self.readmeSwiftBlocks().contains(expected))
    }

    @Test func readmeNamesTheTwoCommands() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("swift run fruits"))
        #expect(readme.contains("swift test"))
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("swift test --parallel"))
    }
}
