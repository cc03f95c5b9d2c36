import Foundation
import Testing

@testable import ObjectGraph

extension FileStoreKind {
    var fileKind: StoreFileKind { self == .json ? .json : .binary }
}

@Suite struct StoreFileInspectorTests {
    // MARK: - Inspect

    @Test(arguments: FileStoreKind.allCases)
    func inspectReportsKindVersionSchemaAndCounts(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let report = try StoreFileInspector.inspect(url)
        #expect(report.kind == kind.fileKind)
        #expect(report.formatVersion == 1)
        #expect(report.fileSize == (try Data(contentsOf: url)).count)
        #expect(report.schema.map(\.name) == TestModels.fruits.entities.map(\.name))
        #expect(report.objectCounts == ["Fruit": 3, "Basket": 1, "Owner": 0, "Tag": 0])
        #expect(report.objectCount == 4)
        #expect(report.nextKeys == ["Fruit": 4, "Basket": 2, "Owner": 1, "Tag": 1])
        #expect(report.frameCount == (kind == .binary ? 2 : nil))
        #expect(report.tornTailOffset == nil)
    }

    @Test(arguments: FileStoreKind.allCases)
    func modelOfAFileMatchesTheAppModelAndOpensTheStoreWithoutItsClasses(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let model = try StoreFileInspector.model(of: url)
        #expect(model.schemaDifferences(from: TestModels.fruits).isEmpty)
        let container = try PersistentContainer(model: model, store: kind.makeStore(at: url))
        let fruits = try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Fruit"))
        #expect(Set(try fruits.map { try $0.value(forKey: "name") as? String }) == ["apple", "pear", "fig"])
        #expect(fruits.allSatisfy { type(of: $0) == ManagedObject.self })
    }

    @Test func kindComesFromTheFirstBytes() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("store.json")
        try seed(.binary, at: url)
        #expect(try StoreFileInspector.kind(of: url) == .binary)
        #expect(StoreFileKind(inferredFrom: url) == .json)
        #expect(StoreFileKind(inferredFrom: URL(fileURLWithPath: "/a/b.store")) == .binary)
    }

    // MARK: - Verify

    @Test(arguments: FileStoreKind.allCases)
    func verifyFindsASoundStoreSound(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        #expect(StoreFileInspector.verify(url) == nil)
    }

    @Test func verifyReportsATornTailWithItsOffsetAndLeavesItInPlace() throws {
        let url = FileStoreKind.binary.makeURL()
        try seed(.binary, at: url)
        let boundary = try Data(contentsOf: url).count
        try seed(.binary, at: url)
        let torn = try Data(contentsOf: url).dropLast(3)
        try torn.write(to: url)
        let problem = try #require(StoreFileInspector.verify(url))
        #expect(problem.code == .corruptStore)
        #expect(problem.byteOffset == boundary)
        #expect(problem.fileURL == url)
        #expect(try Data(contentsOf: url) == torn)
        let report = try StoreFileInspector.inspect(url)
        #expect(report.tornTailOffset == boundary)
        #expect(report.objectCounts["Fruit"] == 3)
        #expect(try StoreFileInspector.snapshot(of: url).count(ofEntity: "Fruit") == 3)
    }

    // MARK: - Bad input

    @Test func missingEmptyAndForeignFilesAreTypedErrors() throws {
        let directory = TemporaryDirectory.make()
        let missing = directory.appendingPathComponent("missing.store")
        let error = #expect(throws: PersistenceError.self) { try StoreFileInspector.inspect(missing) }
        #expect(error?.code == .ioFailure)
        #expect(error?.fileURL == missing)
        let empty = directory.appendingPathComponent("empty.store")
        try Data().write(to: empty)
        #expect(StoreFileInspector.verify(empty)?.code == .corruptStore)
        #expect(StoreFileInspector.verify(empty)?.byteOffset == 0)
        let foreign = directory.appendingPathComponent("foreign.store")
        try Data("PK\u{3}\u{4} a zip archive".utf8).write(to: foreign)
        #expect(StoreFileInspector.verify(foreign)?.code == .unsupportedFormat)
        // SQLite's magic alone is a SQLite store cut short: damaged, naming the file.
        let truncated = directory.appendingPathComponent("truncated.sqlite")
        try Data("SQLite format 3\0".utf8).write(to: truncated)
        #expect(StoreFileInspector.verify(truncated)?.code == .corruptStore)
        #expect(StoreFileInspector.verify(truncated)?.fileURL == truncated)
        #expect(StoreFileInspector.verify(directory)?.code == .unsupportedFormat)
    }

    @Test func aStoredSchemaThatIsNotAValidModelIsCorrupt() throws {
        let url = FileStoreKind.json.makeURL()
        try seed(.json, at: url)
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "\"destination\": \"Basket\"", with: "\"destination\": \"Nowhere\"")
        try Data(text.utf8).write(to: url)
        let error = #expect(throws: PersistenceError.self) { try StoreFileInspector.model(of: url) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("is not a valid model") == true)
        #expect((error?.underlying as? PersistenceError)?.code == .invalidModel)
    }

    // MARK: - Convert and compact

    @Test func convertWritesTheKindAskedForWhateverTheName() throws {
        let source = FileStoreKind.json.makeURL()
        try seed(.json, at: source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("binary.json")
        let summary = try StoreFileInspector.convert(source, to: destination, as: .binary)
        #expect(summary.sourceKind == .json)
        #expect(summary.destinationKind == .binary)
        #expect(summary.objectCount == 4)
        #expect(summary.wroteFile)
        #expect(try StoreFileInspector.kind(of: destination) == .binary)
        #expect(try fruitNames(.binary, at: destination).sorted() == ["apple", "fig", "pear"])
    }

    @Test func compactReplacesTheLogWithOneFrame() throws {
        let url = FileStoreKind.binary.makeURL()
        for _ in 0..<3 { try seed(.binary, at: url) }
        let summary = try StoreFileInspector.compact(url)
        #expect(summary.framesBefore == 4)
        #expect(summary.bytesAfter < summary.bytesBefore)
        #expect(summary.objectCount == 12)
        #expect(try StoreFileInspector.inspect(url).frameCount == 1)
        #expect(try fruitNames(.binary, at: url).count == 9)
    }
}
