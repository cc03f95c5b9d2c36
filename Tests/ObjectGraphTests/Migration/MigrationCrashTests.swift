import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process migrates a store; we kill it with SIGKILL at random moments and check, after
/// every kill, that the file is the old one byte for byte or the whole migrated one, and that the
/// next open migrates (or reads) every object and leaves no temporary file. A SQLite store
/// migrates in one transaction: read through its write-ahead log, it holds the old schema (and
/// then its database file is byte for byte the old one) or the new schema with every object.
@Suite(.serialized) struct MigrationCrashTests {
    static let kills = 20
    static let entries = 20_000

    /// The crash writer's second model (Sources/CrashWriter/Migration.swift), mirrored.
    static func migratedModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Entry",
                attributes: [
                    AttributeDescription(name: "number", type: .integer64, defaultValue: 0),
                    AttributeDescription(name: "text", type: .string, defaultValue: "", renamingIdentifier: "payload"),
                    AttributeDescription(name: "note", type: .string, isOptional: true, defaultValue: "migrated"),
                ]),
            EntityDescription(
                name: "Tally", attributes: [AttributeDescription(name: "count", type: .integer64, defaultValue: 0)]),
        ])
    }

    @Test(arguments: ["json", "binary", "sqlite"])
    func killedMigrationLeavesTheOldOrTheNewStore(kind: String) throws {
        let writer = try CrashWriterLocation.url()
        let url = TemporaryDirectory.make().appendingPathComponent(
            kind == "json" ? "old.json" : kind == "sqlite" ? "old.sqlite" : "old.ogdb")
        try seed(kind, url)
        let original = try Data(contentsOf: url)
        let target = try Self.migratedModel()
        var generator = SystemRandomNumberGenerator()
        var outcomes = (old: 0, new: 0)
        let source = try StoreFileInspector.model(of: url)
        for round in 0..<Self.kills {
            // A killed SQLite migration leaves its log and shared memory: they belong to the file
            // being replaced.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            try original.write(to: url)
            let delay = useconds_t.random(in: 1_000...400_000, using: &generator)
            try Self.runAndKill(writer, arguments: ["migrate-" + kind, url.path], after: delay)
            let now = try Data(contentsOf: url)
            if kind == "sqlite", source.schemaDifferences(from: try StoreFileInspector.model(of: url)).isEmpty {
                #expect(now == original, "round \(round): the old schema over changed pages")
                outcomes.old += 1
            } else if kind != "sqlite" && now == original {
                outcomes.old += 1
            } else {
                let schema = try StoreFileInspector.model(of: url)
                #expect(target.schemaDifferences(from: schema).isEmpty, "round \(round): a mixed file")
                outcomes.new += 1
            }
            let container = try PersistentContainer(model: target, store: Self.store(kind, url))
            let snapshot = container.committedSnapshot()
            #expect(snapshot.count(ofEntity: "Entry") == Self.entries, "round \(round): objects went missing")
            var sum: Int64 = 0
            var textIntact = true
            snapshot.forEachRecord(ofEntity: "Entry") { record in
                guard case .int(let number) = record.values[0] else { return }
                sum += number
                if record.values[1] != .string(String(repeating: "x", count: Int(number % 5))) { textIntact = false }
            }
            #expect(sum == Int64(Self.entries * (Self.entries + 1) / 2), "round \(round)")
            #expect(textIntact, "round \(round): a renamed value was lost")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                .filter { $0.hasPrefix(".objectgraph-tmp-") }
            #expect(leftovers.isEmpty, "round \(round): temporary files survived a reopen: \(leftovers)")
        }
        // Not a requirement of every run, but the delays are meant to reach both outcomes.
        #expect(outcomes.old + outcomes.new == Self.kills)
    }

    private func seed(_ kind: String, _ url: URL) throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Entry.self, Tally.self), store: Self.store(kind, url))
        let context = container.newContext()
        for number in 1...Self.entries {
            let entry = Entry(context: context)
            entry.number = Int64(number)
            entry.payload = String(repeating: "x", count: number % 5)
        }
        Tally(context: context).count = Int64(Self.entries)
        try context.save()
    }

    private static func store(_ kind: String, _ url: URL) -> any PersistentStore {
        switch kind {
        case "json": JSONFileStore(url: url)
        case "sqlite": SQLiteStore(url: url)
        default: BinaryFileStore(url: url)
        }
    }

    private static func runAndKill(_ executable: URL, arguments: [String], after delay: useconds_t) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The crash writer, built next to the test bundle.
enum CrashWriterLocation {
    static func url() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("CrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw NotFound()
    }

    struct NotFound: Error, CustomStringConvertible {
        var description: String { "the CrashWriter executable was not found next to the test bundle" }
    }
}
