import Foundation
import ObjectGraph
import Testing

@Suite struct XcodeModelBundleTests {
    /// A copy of the Journal bundle in a fresh directory, to change its `.xccurrentversion`.
    private func journalCopy() throws -> URL {
        let copy = TemporaryDirectory.make().appendingPathComponent("Journal.xcdatamodeld")
        try FileManager.default.copyItem(at: XcodeModelFixtures.url("Journal.xcdatamodeld"), to: copy)
        return copy
    }

    private func plist(naming name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(name)</string>
        </dict>
        </plist>
        """
    }

    // MARK: - Versions

    @Test func versionsAreInXcodeOrderAndTheCurrentOneIsNamed() throws {
        let bundle = try XcodeModelBundle(contentsOf: XcodeModelFixtures.url("Journal.xcdatamodeld"))
        #expect(bundle.versions.map(\.name) == ["Journal", "Journal 2", "Journal 3"])
        #expect(bundle.currentVersion.name == "Journal 3")
        #expect(bundle.currentVersionNote == nil)
        #expect(bundle.versions.map(\.versionIdentifier) == ["1.0", "2.0", "3.0"])
        // Version 2 renamed Entry.body to text (Xcode's renaming identifier).
        let text = bundle.versions[1].entity(named: "Entry")?.description.attributesByName["text"]
        #expect(text?.renamingIdentifier == "body")
    }

    @Test func everyVersionBuildsAModelForMigration() throws {
        let versions = try ManagedObjectModel.versions(contentsOf: XcodeModelFixtures.url("Journal.xcdatamodeld"))
        #expect(versions.map(\.name) == ["Journal", "Journal 2", "Journal 3"])
        #expect(versions.map { $0.model.entities.count } == [2, 3, 6])
    }

    @Test func namesAreOrderedWithNumbersComparedAsNumbers() throws {
        let bundle = TemporaryDirectory.make().appendingPathComponent("Shop.xcdatamodeld")
        for name in ["Shop 10", "Shop 2", "Shop", "Shop 9"] {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("<model><entity name=\"V\(name.count)\"/></model>".utf8)
                .write(to: folder.appendingPathComponent("contents"))
        }
        let read = try XcodeModelBundle(contentsOf: bundle)
        #expect(read.versions.map(\.name) == ["Shop", "Shop 2", "Shop 9", "Shop 10"])
        #expect(read.currentVersion.name == "Shop 10")
        #expect(read.currentVersionNote?.contains("missing or empty") == true)
        #expect(read.currentVersionNote?.contains("'Shop 10.xcdatamodel'") == true)
    }

    // MARK: - The current version

    @Test func currentVersionFileIsHonouredOverTheLastVersion() throws {
        let copy = try journalCopy()
        try Data(plist(naming: "Journal 2.xcdatamodel").utf8).write(
            to: copy.appendingPathComponent(".xccurrentversion"))
        let bundle = try XcodeModelBundle(contentsOf: copy)
        #expect(bundle.currentVersion.name == "Journal 2")
        #expect(bundle.currentVersionNote == nil)
        #expect(try ManagedObjectModel(contentsOf: copy).entities.map(\.name) == ["Entry", "Notebook", "Tag"])
    }

    @Test func missingEmptyOrUnknownCurrentVersionTakesTheLastAndSaysSo() throws {
        let copy = try journalCopy()
        let versionFile = copy.appendingPathComponent(".xccurrentversion")
        for (contents, phrase) in [
            (nil, "missing or empty"), ("", "missing or empty"), (plist(naming: ""), "names no version"),
            (plist(naming: "Journal 9.xcdatamodel"), "names 'Journal 9.xcdatamodel', which is not in the bundle"),
        ] as [(String?, String)] {
            try? FileManager.default.removeItem(at: versionFile)
            if let contents { try Data(contents.utf8).write(to: versionFile) }
            let bundle = try XcodeModelBundle(contentsOf: copy)
            #expect(bundle.currentVersion.name == "Journal 3")
            #expect(bundle.currentVersionNote?.contains(phrase) == true, "\(bundle.currentVersionNote ?? "nil")")
            #expect(bundle.currentVersionNote?.contains("'Journal 3.xcdatamodel', was taken") == true)
        }
    }

    @Test func malformedCurrentVersionFileIsRefusedWithItsLine() throws {
        let copy = try journalCopy()
        let versionFile = copy.appendingPathComponent(".xccurrentversion")
        try Data("<plist>\n<dict>\n<key>_XCCurrentVersionName</string>".utf8).write(to: versionFile)
        let error = #expect(throws: PersistenceError.self) { try XcodeModelBundle(contentsOf: copy) }
        #expect(error?.code == .invalidModel)
        #expect(error?.line == 3)
        #expect(error?.fileURL == versionFile)
    }

    @Test func xcode3VersionsAreSkippedAndNamed() throws {
        let copy = try journalCopy()
        let old = copy.appendingPathComponent("Journal 1.xcdatamodel")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("bplist00".utf8).write(to: old.appendingPathComponent("elements"))
        let bundle = try XcodeModelBundle(contentsOf: copy)
        #expect(bundle.versions.map(\.name) == ["Journal", "Journal 2", "Journal 3"])
        #expect(bundle.skippedVersionNames == ["Journal 1"])
        #expect(bundle.currentVersion.name == "Journal 3")
        try Data(plist(naming: "Journal 1.xcdatamodel").utf8).write(
            to: copy.appendingPathComponent(".xccurrentversion"))
        let error = #expect(throws: PersistenceError.self) { try XcodeModelBundle(contentsOf: copy) }
        #expect(error?.code == .invalidModel)
        #expect(error?.message.contains("current version 'Journal 1' is in the Xcode 3 format") == true)
    }

    @Test func bundleWithoutVersionsIsRefused() throws {
        let empty = TemporaryDirectory.make().appendingPathComponent("Empty.xcdatamodeld")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(contentsOf: empty) }
        #expect(error?.code == .invalidModel)
        #expect(error?.message.contains("no .xcdatamodel version") == true)
    }

    // MARK: - Typed classes

    @Test func typedClassesBindByClassName() throws {
        let url = XcodeModelFixtures.url("Legacy.xcdatamodel")
        let model = try ManagedObjectModel(contentsOf: url, classes: [LGBank.self])
        #expect(model.entity(for: LGBank.self)?.name == "Bank")
        let context = try PersistentContainer(model: model, storeDescription: .inMemory).newContext()
        let bank = LGBank(context: context)
        bank.name = "First"
        try context.save()
        let fetched = try context.fetch(FetchRequest<LGBank>())
        #expect(fetched.map(\.name) == ["First"])
        let untyped = try context.fetch(FetchRequest<ManagedObject>(entityName: "Bank"))
        #expect(untyped.first is LGBank)
    }

    @Test func classThatDoesNotMatchTheModelIsRefused() {
        let url = XcodeModelFixtures.url("Legacy.xcdatamodel")
        let unknown = #expect(throws: PersistenceError.self) {
            try ManagedObjectModel(contentsOf: url, classes: [Unrelated.self])
        }
        #expect(unknown?.code == .invalidModel)
        #expect(unknown?.message.contains("matches no entity") == true)
        let mismatch = #expect(throws: PersistenceError.self) {
            try ManagedObjectModel(contentsOf: url, classes: [LGTransaction.self])
        }
        #expect(mismatch?.entityName == "Transaction")
        #expect(mismatch?.key == "amount")
        #expect(mismatch?.message.contains("is a string attribute, but a double one") == true)
    }
}

/// Bound to the Legacy fixture's entity Bank by its class name.
private final class LGBank: ManagedObject {
    @Attribute var name: String?
}

/// Declares `amount` with the wrong type for the Legacy fixture's Transaction.
private final class LGTransaction: ManagedObject {
    @Attribute var amount = ""
}

private final class Unrelated: ManagedObject {
    @Attribute var name = ""
}
