import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

/// A counter the load test increments from several servers at once.
final class Counter: ManagedObject {
    @Attribute var name = ""
    @Attribute var value: Int64 = 0
}

/// Several servers, each a process of its own with its own container (this test binary run again
/// with `OBJECTGRAPH_LOAD_CHILD` set), increment shared counters for a bounded time: a conflict is
/// retried after refreshing the object, so every increment that returned is in the store (no lost
/// update), and every process ends on time (no deadlock). The figures it prints are what
/// Docs/Benchmarks.md records; the test asserts only correctness. `OBJECTGRAPH_LOAD_SECONDS`
/// (default 2) and `OBJECTGRAPH_LOAD_WORKERS` (default 4 processes) size it.
@Suite(.postgres) struct PostgresLoadTests {
    static let model = try! ManagedObjectModel(Counter.self)
    static let environment = ProcessInfo.processInfo.environment
    static let seconds = environment["OBJECTGRAPH_LOAD_SECONDS"].flatMap(Double.init) ?? 2
    static let workers = environment["OBJECTGRAPH_LOAD_WORKERS"].flatMap(Int.init) ?? 4
    static let counters = 2
    /// Set in a worker process: its number.
    static let child = environment["OBJECTGRAPH_LOAD_CHILD"].flatMap(Int.init)

    /// What one worker did.
    struct Tally: Sendable {
        var increments: [Int64] = Array(repeating: 0, count: PostgresLoadTests.counters)
        var conflicts = 0
        var latencies: [Duration] = []

        /// One line of increments and conflicts, then one latency (in nanoseconds) per line.
        var text: String {
            ((increments.map(String.init) + [String(conflicts)]).joined(separator: " ") + "\n")
                + latencies.map {
                    String($0.components.seconds * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000)
                }
                .joined(separator: "\n")
        }

        init() {}

        init?(text: String) {
            let lines = text.split(separator: "\n")
            guard let first = lines.first?.split(separator: " ").compactMap({ Int64($0) }),
                first.count == PostgresLoadTests.counters + 1
            else { return nil }
            increments = Array(first.prefix(PostgresLoadTests.counters))
            conflicts = Int(first[PostgresLoadTests.counters])
            latencies = lines.dropFirst().compactMap { Int64($0) }.map { .nanoseconds($0) }
        }
    }

    @Test func processesIncrementingWithConflictsLoseNothingAndFinishInTime() throws {
        guard Self.child == nil else { return }
        let configuration = try PostgresTestServer.configuration()
        let url = try PostgresTestServer.url.get()
        let schema = PostgresTestSchemas.make()
        do {
            let setup = try PersistentContainer(
                model: Self.model, store: PostgresStore(configuration: configuration, schema: schema))
            let context = setup.newContext()
            for index in 0..<Self.counters { Counter(context: context).name = "counter \(index)" }
            try context.save()
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("og-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Workers start together once every process is up: a second from now, plus the run.
        let startsAt = Date().addingTimeInterval(1 + Double(Self.workers) * 0.25)
        let processes = try (0..<Self.workers).map { worker in
            let process = Process()
            process.executableURL = Self.testBinary()
            process.arguments = ["--testing-library", "swift-testing", "--filter", "loadWorkerProcessIncrements"]
            var environment = Self.environment
            environment["OBJECTGRAPH_POSTGRES_URL"] = url
            environment["OBJECTGRAPH_LOAD_CHILD"] = String(worker)
            environment["OBJECTGRAPH_LOAD_SCHEMA"] = schema
            environment["OBJECTGRAPH_LOAD_START"] = String(startsAt.timeIntervalSince1970)
            environment["OBJECTGRAPH_LOAD_RESULT"] = folder.appendingPathComponent("\(worker).txt").path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(
                forWritingTo: Self.create(folder.appendingPathComponent("\(worker).log")))
            try process.run()
            return process
        }
        let limit = startsAt.addingTimeInterval(Self.seconds + 30)
        while processes.contains(where: \.isRunning), Date() < limit { Thread.sleep(forTimeInterval: 0.05) }
        let hung = processes.filter(\.isRunning)
        for process in hung { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
        #expect(hung.isEmpty, "every worker process ended on time (no deadlock)")
        var all: [Tally] = []
        for (worker, process) in processes.enumerated() {
            let log = (try? String(contentsOf: folder.appendingPathComponent("\(worker).log"), encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "worker \(worker) failed: \(log.suffix(2000))")
            let result = try? String(contentsOf: folder.appendingPathComponent("\(worker).txt"), encoding: .utf8)
            if let tally = result.flatMap(Tally.init(text:)) { all.append(tally) }
        }
        #expect(all.count == Self.workers, "every worker reported")
        let reader = try PersistentContainer(
            model: Self.model, store: PostgresStore(configuration: configuration, schema: schema)
        ).newContext()
        let stored = try reader.fetch(Counter.fetchRequest()).map(\.value)
        let expected = (0..<Self.counters).map { index in all.reduce(0) { $0 + $1.increments[index] } }
        #expect(stored == expected, "every increment that returned is in the store")
        let total = expected.reduce(0, +)
        #expect(total > 0)
        let latencies = all.flatMap(\.latencies).sorted()
        let p50 = latencies.isEmpty ? .zero : latencies[latencies.count / 2]
        let p99 = latencies.isEmpty ? .zero : latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        print(
            "load: \(Self.workers) processes, \(Self.counters) counters, \(Self.seconds) s: \(total) increments "
                + "(\(Int(Double(total) / Self.seconds))/s), \(all.map(\.conflicts).reduce(0, +)) conflicts "
                + "retried, p50 \(p50), p99 \(p99)")
    }

    /// The work of one worker process (run by the test above, never on its own).
    @Test(.enabled(if: PostgresLoadTests.child != nil, "runs in the load test's worker processes"))
    func loadWorkerProcessIncrements() throws {
        let environment = Self.environment
        let worker = try #require(Self.child)
        let schema = try #require(environment["OBJECTGRAPH_LOAD_SCHEMA"])
        let startsAt = try #require(environment["OBJECTGRAPH_LOAD_START"].flatMap(Double.init))
        let result = try #require(environment["OBJECTGRAPH_LOAD_RESULT"])
        let configuration = try PostgresTestServer.configuration()
        let wait = Date(timeIntervalSince1970: startsAt).timeIntervalSinceNow
        let container = try PersistentContainer(
            model: Self.model, store: PostgresStore(configuration: configuration, schema: schema))
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(Self.seconds * 1000))
        let tally = try Self.work(worker, container: container, until: deadline)
        try Data(tally.text.utf8).write(to: URL(fileURLWithPath: result))
    }

    /// The test binary, which the load test runs again as its worker processes.
    private static func testBinary() -> URL {
        let linux = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return FileManager.default.isExecutableFile(atPath: linux.path)
            ? linux : URL(fileURLWithPath: CommandLine.arguments[0])
    }

    private static func create(_ url: URL) -> URL {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }

    /// One server: increments a counter (alternating) until `deadline`, retrying conflicts.
    private static func work(_ worker: Int, container: PersistentContainer, until deadline: ContinuousClock.Instant)
        throws -> Tally
    {
        let context = container.newContext()
        let counters = try context.fetch(Counter.fetchRequest())
        var tally = Tally()
        var round = worker
        while ContinuousClock.now < deadline {
            let index = round % Self.counters
            round += 1
            let began = ContinuousClock.now
            while true {
                counters[index].value += 1
                do {
                    try context.save()
                    break
                } catch let error as PersistenceError where error.code == .conflict {
                    // Another server saved it first: take its value and increment again.
                    tally.conflicts += 1
                    context.refresh(counters[index], mergeChanges: false)
                }
            }
            tally.latencies.append(ContinuousClock.now - began)
            tally.increments[index] += 1
        }
        return tally
    }

    /// Raw libpq inserts beside the store's saves: one `INSERT` per transaction (autocommit) on
    /// one connection, for the same time.
    @Test func rawInsertsForComparison() throws {
        let connection = try PostgresTestServer.connect()
        let table = PostgresTestServer.uniqueName()
        try connection.execute("CREATE TEMPORARY TABLE \(table) (k BIGINT PRIMARY KEY, v BIGINT)")
        var latencies: [Duration] = []
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(Self.seconds * 1000))
        var key: Int64 = 0
        while ContinuousClock.now < deadline {
            key += 1
            let began = ContinuousClock.now
            try connection.run("INSERT INTO \(table) (k, v) VALUES ($1, $2)", [.integer(key), .integer(key)])
            latencies.append(ContinuousClock.now - began)
        }
        let elapsed = ContinuousClock.now - start
        latencies.sort()
        #expect(try connection.rows("SELECT count(*) FROM \(table)") == [[.integer(key)]])
        print(
            "raw libpq: \(key) autocommit inserts in \(elapsed) (\(Int(Double(key) / Self.seconds(elapsed)))/s), "
                + "p50 \(latencies[latencies.count / 2]), p99 \(latencies[latencies.count * 99 / 100])")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
