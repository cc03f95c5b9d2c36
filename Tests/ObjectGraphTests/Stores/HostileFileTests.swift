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

/// Things planted at or beside a store's path: each is a typed error or is left alone, never a
/// hang, and never written through.
@Suite struct HostileFileTests {
    @Test(arguments: FileStoreKind.allCases)
    func fifoAsTheStorePathIsATypedErrorNotAHang(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        #expect(mkfifo(url.path, 0o600) == 0)
        let error = #expect(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("FIFO") == true)
    }

    @Test(arguments: FileStoreKind.allCases)
    func directoryAsTheStorePathIsATypedError(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let error = #expect(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("a directory") == true)
    }

    @Test(arguments: FileStoreKind.allCases)
    func directoryNamedLikeATemporaryFileIsLeftAlone(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let folder = url.deletingLastPathComponent()
        let planted = folder.appendingPathComponent(".objectgraph-tmp-\(url.lastPathComponent)-planted")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: planted.appendingPathComponent("inside"))
        let link = folder.appendingPathComponent(".objectgraph-tmp-\(url.lastPathComponent)-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: planted)
        #expect(try fruitNames(kind, at: url).sorted() == ["apple", "fig", "pear"])
        #expect(try fruitNames(kind, at: url).sorted() == ["apple", "fig", "pear"])
        #expect(FileManager.default.fileExists(atPath: planted.appendingPathComponent("inside").path))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil)
    }

    /// Only when the tests run as root can they give a file to another user.
    @Test(.enabled(if: geteuid() == 0), arguments: FileStoreKind.allCases)
    func anotherUsersFileNamedLikeATemporaryFileIsLeftAlone(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        try seed(kind, at: url)
        let planted = url.deletingLastPathComponent().appendingPathComponent(
            ".objectgraph-tmp-\(url.lastPathComponent)-theirs")
        try Data("theirs".utf8).write(to: planted)
        #expect(chown(planted.path, 65534, 65534) == 0)
        #expect(try fruitNames(kind, at: url).sorted() == ["apple", "fig", "pear"])
        #expect(FileManager.default.fileExists(atPath: planted.path))
    }

    @Test(arguments: FileStoreKind.allCases)
    func symlinkAtTheLockPathIsNotFollowed(kind: FileStoreKind) throws {
        let url = kind.makeURL()
        let target = url.deletingLastPathComponent().appendingPathComponent("elsewhere")
        try FileManager.default.createSymbolicLink(
            at: URL(fileURLWithPath: url.path + ".lock"), withDestinationURL: target)
        let error = #expect(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("symbolic link") == true)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
