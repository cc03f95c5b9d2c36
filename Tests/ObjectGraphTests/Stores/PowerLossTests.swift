import Foundation
import Testing

@testable import ObjectGraph

/// Power cuts at every point of a scripted workload on each file store: each disk state POSIX
/// allows there (`PowerLossFileSystem`: unsynced writes lost or reordered, the last one torn at a
/// sector, directory changes lost until the directory is synced) must open, hold exactly the
/// acknowledged saves or those plus the one in flight, and keep no temporary file after the open.
///
/// Set `POWER_LOSS_EVERY_STATE=1` to try every state; by default each crash point's states are
/// sampled (every `sampleStride`-th, always including the first and the last), which CI runs.
@Suite struct PowerLossTests {
    /// A file store configuration under test.
    enum Configuration: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case json
        /// The binary store appending frames, never compacting.
        case binaryLog
        /// The binary store compacting (rewriting itself) after every save.
        case binaryCompacting

        var testDescription: String { rawValue }

        func makeStore(at url: URL, _ fileSystem: any FileSystem) -> any PersistentStore {
            switch self {
            case .json: JSONFileStore(url: url, prettyPrinted: false, fileSystem: fileSystem)
            case .binaryLog:
                BinaryFileStore(url: url, fileSystem: fileSystem, compactionRatio: .max, compactionThreshold: .max)
            case .binaryCompacting:
                BinaryFileStore(url: url, fileSystem: fileSystem, compactionRatio: 0, compactionThreshold: 0)
            }
        }

        var fileName: String { self == .json ? "fruits.json" : "fruits.ogdb" }
    }

    static let everyState = ProcessInfo.processInfo.environment["POWER_LOSS_EVERY_STATE"] == "1"
    static let sampleStride = 7

    /// What a recorded run acknowledged: after how many recorded changes each state was
    /// acknowledged (the open's empty store first, then one per save), and the state.
    struct Run {
        var url: URL
        var fileSystem: PowerLossFileSystem
        var acknowledged: [(changeCount: Int, contents: [UInt8])] = []
    }

    /// The records of a snapshot, comparable: the JSON store's document of it.
    static func contents(_ snapshot: StoreSnapshot) -> [UInt8] {
        StoreFileCodec.encodeJSONStore(snapshot, pretty: false)
    }

    /// The workload: inserts (one with a name spanning several sectors), updates, deletes, a
    /// relationship change, a batch update, a batch delete with a predicate, a delete-all and
    /// inserts after it.
    static func record(_ configuration: Configuration, _ fileSystem: PowerLossFileSystem) throws -> Run {
        let url = TemporaryDirectory.make().appendingPathComponent(configuration.fileName)
        var run = Run(url: url, fileSystem: fileSystem)
        let container = try PersistentContainer(
            model: TestModels.fruits, store: configuration.makeStore(at: url, fileSystem))
        run.acknowledged.append((fileSystem.changeCount, contents(container.committedSnapshot())))
        let context = container.newContext()
        func save(_ changes: () throws -> Void) throws {
            try changes()
            try context.save()
            run.acknowledged.append((fileSystem.changeCount, contents(container.committedSnapshot())))
        }
        var kiwi: Fruit!
        var apple: Fruit!
        try save {
            let basket = Basket(context: context)
            basket.label = "kitchen"
            kiwi = makeFruit(context, "kiwi", price: 120)
            kiwi.basket = basket
            apple = makeFruit(context, "apple", price: 80)
            makeFruit(context, "pear", price: 95)
        }
        try save { kiwi.price = 130 }
        try save { makeFruit(context, String(repeating: "long name ", count: 150), price: 7) }
        try save {
            context.delete(apple)
            kiwi.basket = nil
        }
        try save {
            _ = try context.execute(
                BatchUpdateRequest(Fruit.self, predicate: nil, propertiesToUpdate: ["price": .int(1)]))
        }
        try save {
            _ = try context.execute(
                BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "name == 'pear'")))
        }
        try save { _ = try context.execute(BatchDeleteRequest(entityName: "Fruit")) }
        try save {
            context.reset()
            makeFruit(context, "fig", price: 300)
            makeFruit(context, "date", price: 250)
        }
        return run
    }

    /// The states a reopen may show after a crash at `point`: the last acknowledged one, and the
    /// one in flight (nil before the first open acknowledged anything: any state may then be empty).
    static func allowed(at point: Int, in run: Run) -> [[UInt8]] {
        guard let last = run.acknowledged.lastIndex(where: { $0.changeCount <= point }) else {
            return [run.acknowledged[0].contents]
        }
        return [run.acknowledged[last].contents]
            + (last + 1 < run.acknowledged.count ? [run.acknowledged[last + 1].contents] : [])
    }

    /// Opens every crash state of the run (or a sample) and checks it: how many crash points and
    /// states it tried, and what was wrong with them.
    static func check(
        _ run: Run, _ configuration: Configuration, every: Bool = everyState, maximumSelections: Int = 4_096
    ) -> (points: Int, states: Int, problems: [String]) {
        var tried = 0
        var problems: [String] = []
        let points = run.fileSystem.changeCount
        for point in 0...points {
            let states = run.fileSystem.crashStates(at: point, maximumSelections: maximumSelections)
            let allowed = Self.allowed(at: point, in: run)
            for (index, image) in states.enumerated()
            where every || index % sampleStride == 0 || index == states.count - 1 {
                tried += 1
                let place = "crash after change \(point) of \(points), state \(index)"
                let fileSystem = PowerLossFileSystem(image)
                let store = configuration.makeStore(at: run.url, fileSystem)
                let snapshot: StoreSnapshot
                do {
                    snapshot = try store.load(model: TestModels.fruits)
                } catch {
                    problems.append("\(place): the store does not open: \(error)")
                    continue
                }
                defer { store.close() }
                if !allowed.contains(contents(snapshot)) {
                    problems.append(
                        "\(place): the store holds neither the acknowledged saves nor those and the one in flight "
                            + "(\(snapshot.count) objects)")
                }
                let leftovers = ((try? fileSystem.contentsOfDirectory(run.url.deletingLastPathComponent().path)) ?? [])
                    .filter { $0.hasPrefix(AtomicFile.temporaryPrefix) }
                if !leftovers.isEmpty { problems.append("\(place): \(leftovers) left behind after the open") }
            }
        }
        return (points + 1, tried, problems)
    }

    // MARK: - Crash states

    @Test(arguments: Configuration.allCases)
    func everyCrashStateOpensWithTheAcknowledgedSavesOrTheOneInFlight(configuration: Configuration) throws {
        let run = try Self.record(configuration, PowerLossFileSystem())
        #expect(run.acknowledged.count == 9)
        let (points, states, problems) = Self.check(run, configuration)
        #expect(problems.isEmpty, "\(problems.count) problems, the first: \(problems.prefix(3))")
        #expect(points > 20 && states > points)
        print("PowerLossTests \(configuration.rawValue): \(points) crash points, \(states) crash states tried")
    }

    /// The check can fail: on a disk whose `fsync` does nothing (a store that forgot to call it
    /// looks the same), acknowledged saves are lost in some crash states, and the check says so.
    @Test(arguments: Configuration.allCases)
    func aDiskThatIgnoresFsyncLosesAcknowledgedSaves(configuration: Configuration) throws {
        let run = try Self.record(configuration, PowerLossFileSystem(ignoringSyncs: true))
        let (_, _, problems) = Self.check(run, configuration, every: false, maximumSelections: 64)
        #expect(problems.contains { $0.contains("neither the acknowledged saves") })
    }

    // MARK: - The simulation itself

    @Test func unsyncedWritesAreLostTornOrReorderedAndSyncedOnesKept() throws {
        let fileSystem = PowerLossFileSystem()
        let descriptor = try fileSystem.open("/d/f", flags: O_RDWR | O_CREAT, mode: 0o600)
        try fileSystem.synchronize(fileSystem.open("/d", flags: O_DIRECTORY, mode: 0), path: "/d")
        let first = [UInt8](repeating: 1, count: 100)
        let second = [UInt8](repeating: 2, count: 1_100)
        try first.withUnsafeBytes { try fileSystem.write(descriptor, $0, at: 0, path: "/d/f") }
        try fileSystem.synchronize(descriptor, path: "/d/f")
        try second.withUnsafeBytes { try fileSystem.write(descriptor, $0, at: 100, path: "/d/f") }
        try first.withUnsafeBytes { try fileSystem.write(descriptor, $0, at: 1_200, path: "/d/f") }
        let states = fileSystem.crashStates(at: fileSystem.changeCount).map { $0.files.values.first ?? [] }
        // Kept: the synced write. Second write: lost, torn at 512 or 1024, or whole; third: lost or
        // kept, independently (so the third can be there without the second).
        #expect(states.allSatisfy { $0.prefix(100) == first[...] })
        #expect(states.contains(first))
        #expect(states.contains(first + second))
        #expect(states.contains(first + second[..<412]))
        #expect(states.contains(first + second[..<924]))
        #expect(states.contains(first + [UInt8](repeating: 0, count: 1_100) + first))
        #expect(states.contains(first + second + first))
        #expect(states.count == 6)
    }

    @Test func aRenameIsLostUntilItsDirectoryIsSynced() throws {
        let fileSystem = PowerLossFileSystem()
        let directory = try fileSystem.open("/d", flags: O_DIRECTORY, mode: 0)
        _ = try fileSystem.open("/d/a", flags: O_RDWR | O_CREAT, mode: 0o600)
        try fileSystem.synchronize(directory, path: "/d")
        try fileSystem.rename("/d/a", to: "/d/b")
        #expect(
            Set(fileSystem.crashStates(at: fileSystem.changeCount).map { Array($0.names.keys) }) == [
                ["/d/a"], ["/d/b"],
            ])
        try fileSystem.synchronize(directory, path: "/d")
        #expect(fileSystem.crashStates(at: fileSystem.changeCount).map { Array($0.names.keys) } == [["/d/b"]])
    }
}
