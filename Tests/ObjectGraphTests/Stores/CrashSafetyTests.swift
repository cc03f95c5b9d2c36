import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The model of the crash writer (Sources/CrashWriter), mirrored here to read what it saved.
final class Entry: ManagedObject {
    @Attribute var number: Int64 = 0
    @Attribute var payload = ""
}

final class Tally: ManagedObject {
    @Attribute var count: Int64 = 0
}

/// A child process saves in a loop; we kill it with SIGKILL at random moments and check, after
/// every kill, that the store opens and holds exactly the first M saves, for some M at least as
/// large as the last save the child saw return (Docs/Recovery.md).
@Suite(.serialized) struct CrashSafetyTests {
    static let kills = 50
    let model = try! ManagedObjectModel(Entry.self, Tally.self)

    @Test(arguments: ["binary", "json", "binary-deleteall", "sqlite"])
    func killedWriterLeavesAWholeNumberOfSaves(kind: String) throws {
        let writer = try Self.writerURL()
        let name = kind == "json" ? "crash.json" : kind == "sqlite" ? "crash.sqlite" : "crash.ogdb"
        let url = TemporaryDirectory.make().appendingPathComponent(name)
        var generator = SystemRandomNumberGenerator()
        var previous: Int64 = 0
        for round in 0..<Self.kills {
            let delay = useconds_t.random(in: 2_000...60_000, using: &generator)
            let acknowledged = try Self.runAndKill(writer, arguments: [kind, url.path], after: delay)
            let saved = try readSaves(kind: kind, url: url)
            #expect(saved >= acknowledged, "round \(round): \(acknowledged) saves returned, \(saved) found")
            #expect(saved >= previous, "round \(round): saves went missing")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                .filter { $0.hasPrefix(".objectgraph-tmp-") }
            #expect(leftovers.isEmpty, "round \(round): temporary files survived a reopen")
            previous = saved
        }
        #expect(previous > 0, "the writer never completed a save")
    }

    /// The number of saves in the store, after checking that it holds exactly saves 1...M.
    private func readSaves(kind: String, url: URL) throws -> Int64 {
        let store: any PersistentStore =
            switch kind {
            case "json": JSONFileStore(url: url)
            case "sqlite": SQLiteStore(url: url)
            default: BinaryFileStore(url: url)
            }
        let container = try PersistentContainer(model: model, store: store)
        let context = container.newContext()
        let count = try context.fetch(Tally.fetchRequest()).first?.count ?? 0
        let numbers = try context.fetch(Entry.fetchRequest()).map(\.number)
        guard kind == "binary-deleteall" else {
            #expect(numbers == Array(stride(from: 1, through: count, by: 1)), "entries do not match the tally \(count)")
            return count
        }
        // Every third save's entries were deleted in one step, after that save.
        let deletedUpTo = count == 0 ? 0 : 3 * ((count - 1) / 3)
        let expected = Array(stride(from: deletedUpTo + 1, through: count, by: 1))
        #expect(
            numbers == expected || (count % 3 == 0 && numbers.isEmpty),
            "entries \(numbers.first ?? 0)...\(numbers.last ?? 0) do not match the tally \(count)")
        return count
    }

    /// Runs the writer, kills it with SIGKILL after `delay` microseconds, and returns the last
    /// save number it printed.
    static func runAndKill(_ executable: URL, arguments: [String], after delay: useconds_t) throws -> Int64 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Int64($0) }.last ?? 0
    }

    /// The crash writer, built next to the test bundle.
    static func writerURL() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("CrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw WriterNotFound()
    }

    struct WriterNotFound: Error, CustomStringConvertible {
        var description: String { "the CrashWriter executable was not found next to the test bundle" }
    }
}
