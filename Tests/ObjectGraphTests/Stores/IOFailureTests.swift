import Foundation
import Testing

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every system call of a save and of an open, failed in turn (EIO, ENOSPC, EINTR, a failed
/// fsync): the call fails with a typed error, the store keeps its old or its new state, and a
/// reopen shows what the call reported.
@Suite struct IOFailureTests {
    /// A file store through `fileSystem`; the binary one compacts after every save, so that a
    /// save runs the compaction's calls too.
    static func makeStore(_ kind: FileStoreKind, at url: URL, _ fileSystem: any FileSystem) -> any PersistentStore {
        switch kind {
        case .json: JSONFileStore(url: url, prettyPrinted: true, fileSystem: fileSystem)
        case .binary: BinaryFileStore(url: url, fileSystem: fileSystem, compactionRatio: 0, compactionThreshold: 0)
        }
    }

    static let failures: [Int32] = [EIO, ENOSPC, EINTR]

    /// The number of calls an open and a save make, without failures.
    static func callCounts(_ kind: FileStoreKind) throws -> (open: Int, save: Int) {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let fileSystem = FaultInjectingFileSystem()
        let container = try PersistentContainer(model: TestModels.fruits, store: makeStore(kind, at: url, fileSystem))
        let open = fileSystem.calls.count
        let context = container.newContext()
        makeFruit(context, "kiwi")
        try context.save()
        return (open, fileSystem.calls.count - open)
    }

    /// A container on a seeded file store at `url` through `fileSystem`, and a context of it.
    static func openSeeded(_ kind: FileStoreKind, at url: URL, _ fileSystem: FaultInjectingFileSystem) throws
        -> (PersistentContainer, ManagedContext)
    {
        try seed(kind, at: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: makeStore(kind, at: url, fileSystem))
        return (container, container.newContext())
    }

    static func leftoverTemporaryFiles(next url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".objectgraph-tmp-") }
    }

    /// Saves the context's changes (a first save, without failures) and returns the number the
    /// directory fsync of the next save, of the same shape, will have.
    static func directorySyncOfNextSave(_ fileSystem: FaultInjectingFileSystem, _ context: ManagedContext) throws
        -> Int
    {
        let start = fileSystem.calls.count
        try context.save()
        let end = fileSystem.calls.count
        let sync = try #require(fileSystem.calls[start...].firstIndex { $0.hasPrefix("fsyncdir") })
        return end + sync - start
    }

    @Test(arguments: FileStoreKind.allCases, failures)
    func everyFailingCallOfASaveKeepsTheOldOrTheNewStateAsReported(kind: FileStoreKind, failure: Int32) throws {
        let counts = try Self.callCounts(kind)
        #expect(counts.save > 4)
        for call in counts.open..<(counts.open + counts.save) {
            let url = kind.makeURL()
            try seed(kind, at: url)
            let fileSystem = FaultInjectingFileSystem()
            var saved = false
            do {
                let container = try PersistentContainer(
                    model: TestModels.fruits, store: Self.makeStore(kind, at: url, fileSystem))
                let context = container.newContext()
                makeFruit(context, "kiwi")
                fileSystem.fail([call], with: failure)
                do {
                    try context.save()
                    saved = true
                } catch let error as PersistenceError {
                    #expect(error.code == .ioFailure, "call \(fileSystem.calls[call])")
                    #expect(context.insertedObjects.count == 1)
                }
                // A save after a failed one must not lose its data either.
                fileSystem.fail([], with: failure)
                #expect(!fileSystem.hasUndurableRename, "call \(fileSystem.calls[call])")
            }
            let expected = saved ? ["apple", "fig", "kiwi", "pear"] : ["apple", "fig", "pear"]
            #expect(try fruitNames(kind, at: url).sorted() == expected, "call \(fileSystem.calls[call])")
            #expect(try Self.leftoverTemporaryFiles(next: url).isEmpty)
        }
    }

    @Test(arguments: FileStoreKind.allCases, failures)
    func everyFailingCallOfAnOpenIsATypedErrorAndChangesNothing(kind: FileStoreKind, failure: Int32) throws {
        let counts = try Self.callCounts(kind)
        for call in 0..<counts.open {
            let url = kind.makeURL()
            try seed(kind, at: url)
            let before = try Data(contentsOf: url)
            let fileSystem = FaultInjectingFileSystem()
            fileSystem.fail([call], with: failure)
            var opened = false
            do {
                _ = try PersistentContainer(model: TestModels.fruits, store: Self.makeStore(kind, at: url, fileSystem))
                opened = true
            } catch let error as PersistenceError {
                #expect(error.code == .ioFailure, "call \(fileSystem.calls[call])")
            }
            // A binary store that opens may compact itself: the same data, other bytes.
            if kind == .json || !opened {
                #expect(try Data(contentsOf: url) == before, "call \(fileSystem.calls[call])")
            }
            #expect(try fruitNames(kind, at: url).sorted() == ["apple", "fig", "pear"])
        }
    }

    /// The JSON store's rename lands, then the directory fsync fails: the save must fail *and*
    /// leave the old file, now and after a reopen.
    @Test func jsonSaveWhoseDirectoryFsyncFailsKeepsTheOldFile() throws {
        let url = FileStoreKind.json.makeURL()
        let fileSystem = FaultInjectingFileSystem()
        do {
            let (container, context) = try Self.openSeeded(.json, at: url, fileSystem)
            defer { withExtendedLifetime(container) {} }
            makeFruit(context, "kiwi")
            let sync = try Self.directorySyncOfNextSave(fileSystem, context)
            let before = try Data(contentsOf: url)
            makeFruit(context, "lime")
            fileSystem.fail([sync], with: EIO)
            let error = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(fileSystem.calls[sync].hasPrefix("fsyncdir"))
            #expect(error?.code == .ioFailure)
            #expect(try Data(contentsOf: url) == before)
            fileSystem.fail([], with: EIO)
            try context.save()
        }
        #expect(try fruitNames(.json, at: url).sorted() == ["apple", "fig", "kiwi", "lime", "pear"])
    }

    /// When the old file cannot be put back either, the outcome is unknown: the save says so,
    /// and the store refuses further saves until it is reopened.
    @Test func jsonSaveThatCannotBeUndoneRefusesLaterSavesUntilReopened() throws {
        let url = FileStoreKind.json.makeURL()
        let fileSystem = FaultInjectingFileSystem()
        do {
            let (container, context) = try Self.openSeeded(.json, at: url, fileSystem)
            defer { withExtendedLifetime(container) {} }
            makeFruit(context, "kiwi")
            let sync = try Self.directorySyncOfNextSave(fileSystem, context)
            makeFruit(context, "lime")
            // The directory fsync, then putting the old file back.
            fileSystem.fail([sync, sync + 1], with: EIO)
            let error = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(fileSystem.calls[sync + 1].hasPrefix("rename"))
            #expect(error?.code == .ioFailure)
            #expect(error?.message.contains("previous or the new contents") == true)
            fileSystem.fail([], with: EIO)
            let refused = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(refused?.message.contains("outcome is unknown") == true)
        }
        let names = try fruitNames(.json, at: url).sorted()
        #expect(names == ["apple", "fig", "kiwi", "pear"] || names == ["apple", "fig", "kiwi", "lime", "pear"])
    }

    /// A compaction whose directory fsync fails must not leave the store appending to a file
    /// whose name a power cut could take back.
    @Test func binaryCompactionWhoseDirectoryFsyncFailsKeepsAppendingToADurableName() throws {
        let url = FileStoreKind.binary.makeURL()
        let fileSystem = FaultInjectingFileSystem()
        do {
            let (container, context) = try Self.openSeeded(.binary, at: url, fileSystem)
            defer { withExtendedLifetime(container) {} }
            makeFruit(context, "kiwi")
            let sync = try Self.directorySyncOfNextSave(fileSystem, context)
            makeFruit(context, "lime")
            fileSystem.fail([sync], with: EIO)
            try context.save()
            #expect(fileSystem.calls[sync].hasPrefix("fsyncdir"))
            fileSystem.fail([], with: EIO)
            makeFruit(context, "plum")
            try context.save()
            #expect(!fileSystem.hasUndurableRename)
        }
        #expect(try fruitNames(.binary, at: url).sorted() == ["apple", "fig", "kiwi", "lime", "pear", "plum"])
    }

    /// On a file system without hard links (`link` fails with EPERM) saves still work; only a
    /// failed directory fsync then leaves the outcome unknown, and says so.
    @Test func jsonSavesWorkWithoutHardLinks() throws {
        let url = FileStoreKind.json.makeURL()
        let fileSystem = FaultInjectingFileSystem()
        do {
            let (container, context) = try Self.openSeeded(.json, at: url, fileSystem)
            defer { withExtendedLifetime(container) {} }
            makeFruit(context, "kiwi")
            let start = fileSystem.calls.count
            try context.save()
            let link = try #require(fileSystem.calls[start...].firstIndex { $0.hasPrefix("link") }) - start
            let sync = try #require(fileSystem.calls[start...].firstIndex { $0.hasPrefix("fsyncdir") }) - start
            makeFruit(context, "lime")
            fileSystem.fail([fileSystem.calls.count + link: EPERM])
            try context.save()
            makeFruit(context, "plum")
            // The link is refused, so the directory fsync comes one call earlier.
            let next = fileSystem.calls.count
            fileSystem.fail([next + link: EPERM, next + sync - 1: EIO])
            let error = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(error?.message.contains("no second name") == true)
            fileSystem.fail([:])
            let refused = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(refused?.message.contains("outcome is unknown") == true)
        }
        let names = try fruitNames(.json, at: url).sorted()
        #expect(
            names == ["apple", "fig", "kiwi", "lime", "pear"]
                || names == ["apple", "fig", "kiwi", "lime", "pear", "plum"])
    }
}
