import Foundation
import Testing

@Suite struct GenerateCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/XcodeModels")

    private func generate(_ model: String, _ extra: [String] = []) throws -> (run: ToolRun, folder: URL) {
        let folder = TemporaryDirectory.make().appendingPathComponent("Generated")
        let run = objectgraph(
            ["generate", Self.fixtures.appendingPathComponent(model).path, "--output", folder.path] + extra)
        return (run, folder)
    }

    private func source(_ file: String, in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    }

    // MARK: - Declarations

    @Test func writesOneClassPerEntityWithItsDeclarations() throws {
        let (run, folder) = try generate("Journal.xcdatamodeld")
        #expect(run.status == 0, "\(run.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["Entry.swift", "Item.swift", "Notebook.swift", "Person.swift", "Photo.swift", "Tag.swift"])
        let entry = try source("Entry.swift", in: folder)
        #expect(entry.contains("final class Entry: Item {"))
        #expect(entry.contains("override class var entityName: String { \"Entry\" }"))
        #expect(entry.contains("@Attribute(length: 3...3, pattern: \"[A-Z]+\") var code: String = \"ABC\""))
        #expect(entry.contains("@Attribute(optional: true, minimum: -2, maximum: 2) var mood: Int16 = 0"))
        #expect(entry.contains("@Attribute var keywords: [String]?"))
        #expect(entry.contains("@Attribute var color: Data?"))
        #expect(entry.contains("@Attribute(indexed: true) var serial: Int64 = 0"))
        #expect(entry.contains("var draft: String?\n"))
        #expect(entry.contains("@Relationship(inverse: \"entries\", maxCount: 10) var tags: [Tag]"))
        let item = try source("Item.swift", in: folder)
        #expect(item.contains("\nclass Item: ManagedObject {"))
        #expect(item.contains("override class var isAbstractEntity: Bool { self == Item.self }"))
        #expect(!entry.contains("isAbstractEntity"))
        #expect(item.contains("override class var uniquenessConstraints: [[String]] { [[\"identifier\"]] }"))
        #expect(item.contains("@Attribute var identifier: UUID\n"))
        let notebook = try source("Notebook.swift", in: folder)
        #expect(notebook.contains("@Relationship(inverse: \"notebook\", deleteRule: .cascade) var items: Set<Item>"))
        #expect(run.outputLines.contains { $0.hasSuffix("Generated/Entry.swift") })
        #expect(run.outputLines.contains { $0.hasPrefix("note: ") && $0.contains("'draft'") })
    }

    @Test func keywordsAndManagedObjectMembersStayCompilable() throws {
        let (run, folder) = try generate("Legacy.xcdatamodel")
        #expect(run.status == 0, "\(run.error)")
        let account = try source("LGAccount.swift", in: folder)
        #expect(account.contains("override class var entityName: String { \"Account\" }"))
        #expect(account.contains("@Attribute var `class`: String?"))
        #expect(account.contains("var hasChangesValue: Bool? {"))
        #expect(try source("Branch.swift", in: folder).contains("@Relationship(inverse: nil) var bank: LGBank?"))
    }

    @Test func unsupportedPropertiesFailUnlessSkipped() throws {
        let (refused, _) = try generate("Extras.xcdatamodel")
        #expect(refused.status == 1)
        #expect(refused.error.contains("unsupportedFormat"))
        #expect(refused.error.contains("Author.bookCount"))
        let (skipped, folder) = try generate("Extras.xcdatamodel", ["--skip-unsupported"])
        #expect(skipped.status == 0)
        #expect(try !source("Author.swift", in: folder).contains("bookCount"))
        #expect(skipped.outputLines.filter { $0.hasPrefix("note: ") }.count == 3)
    }

    @Test func outputIsRequired() {
        let run = objectgraph("generate", Self.fixtures.appendingPathComponent("Legacy.xcdatamodel").path)
        #expect(run.status == 2)
        #expect(run.error.contains("'--output DIR' is required"))
    }

    // MARK: - Compiling

    /// Generates every fixture and compiles the result with swiftc against the built ObjectGraph
    /// module (to an object file, so that every diagnostic pass runs), warnings as errors: one
    /// compiler run for all fixtures, to keep the test quick.
    @Test func generatedCodeCompilesWithoutWarnings() throws {
        let modules = try #require(Self.builtModules(), "the built ObjectGraph module was not found")
        var sources: [URL] = []
        for (model, extra) in [
            ("Journal.xcdatamodeld", [] as [String]), ("Legacy.xcdatamodel", []),
            ("Extras.xcdatamodel", ["--skip-unsupported"]),
        ] {
            let (run, folder) = try generate(model, extra)
            #expect(run.status == 0, "\(run.error)")
            // The fixtures' class names differ, so their files compile together as one module.
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            sources += files.map { folder.appendingPathComponent($0) }
        }
        let result = try Self.swiftc(
            [
                "-parse-as-library", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path,
                "-I", Self.systemModules.path, "-module-name", "GeneratedModels", "-wmo", "-c", "-o",
                TemporaryDirectory.make().appendingPathComponent("GeneratedModels.o").path,
            ] + sources.map(\.path))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.isEmpty, "\(result.output)")
    }

    @Test func compileCheckCatchesAWarning() throws {
        let modules = try #require(Self.builtModules())
        let file = TemporaryDirectory.make().appendingPathComponent("Warning.swift")
        try Data("import ObjectGraph\nfunc f() { var unused = 1 }\n".utf8).write(to: file)
        let result = try Self.swiftc(
            [
                "-parse-as-library", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path, "-I",
                Self.systemModules.path, "-typecheck", file.path,
            ])
        #expect(result.status != 0)
        #expect(result.output.contains("'unused' was never used"), "\(result.output)")
    }

    /// The folder of the build's `.swiftmodule`s: beside the running test bundle.
    static func builtModules() -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let modules = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("ObjectGraph.swiftmodule").path) {
                return modules
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The module map of the system SQLite that the ObjectGraph module imports on Linux.
    static let systemModules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/CSQLite")

    static func swiftc(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

@Suite struct GeneratedCodeGuideTests {
    /// The classes Docs/PortingFromCoreData.md shows are the ones `generate` writes for the fixture.
    @Test func guideShowsTheGeneratedClasses() throws {
        let root = GenerateCommandTests.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/PortingFromCoreData.md"), encoding: .utf8)
        let folder = TemporaryDirectory.make()
        let run = objectgraph(
            "generate", GenerateCommandTests.fixtures.appendingPathComponent("Garden.xcdatamodeld").path, "--output",
            folder.path)
        #expect(run.status == 0)
        for name in ["Bed", "Crop"] {
            let source = try String(contentsOf: folder.appendingPathComponent("\(name).swift"), encoding: .utf8)
            let declaration = try #require(source.range(of: "/// The entity `\(name)`.")).lowerBound
            let body = String(source[declaration...]).trimmingCharacters(in: .newlines)
            #expect(guide.contains(body), "Docs/PortingFromCoreData.md does not show the generated \(name).swift")
        }
    }

    /// The Mermaid diagram in Docs/PortingFromCoreData.md is what `diagram` prints for the fixture.
    @Test func guideShowsTheDiagramOutput() throws {
        let root = GenerateCommandTests.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/PortingFromCoreData.md"), encoding: .utf8)
        let block = try #require(guide.components(separatedBy: "```mermaid\n").dropFirst().first)
            .components(separatedBy: "\n```").first
        let run = objectgraph(
            "diagram", GenerateCommandTests.fixtures.appendingPathComponent("Garden.xcdatamodeld").path)
        #expect(run.output == (block ?? "") + "\n")
    }
}
