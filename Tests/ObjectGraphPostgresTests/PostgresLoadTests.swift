import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

/// A counter the load test increments from several servers at once.
final class Counter: ManagedObject {
    @Attribute var name = ""
    @Attribute var value: Int64 = 0
}

/// Several containers, each on its own store and connection (as several servers are), increment
/// shared counters for a bounded time: a conflict is retried after refreshing the object, so
/// every increment that returned is in the store (no lost update), and the run ends on time (no
/// deadlock). The figures it prints are what Docs/Benchmarks.md records; the test asserts only
/// correctness. `OBJECTGRAPH_LOAD_SECONDS` (default 2) and `OBJECTGRAPH_LOAD_WORKERS` (default 4)
/// size it.
@Suite(.postgres) struct PostgresLoadTests {
    static let model = try! ManagedObjectModel(Counter.self)
    static let environment = ProcessInfo.processInfo.environment
    static let seconds = environment["OBJECTGRAPH_LOAD_SECONDS"].flatMap(Double.init) ?? 2
    static let workers = environment["OBJECTGRAPH_LOAD_WORKERS"].flatMap(Int.init) ?? 4
    static let counters = 2

    /// What one worker did.
    struct Tally: Sendable {
        var increments: [Int64] = Array(repeating: 0, count: PostgresLoadTests.counters)
        var conflicts = 0
        var latencies: [Duration] = []
    }

    @Test func concurrentIncrementsWithConflictsLoseNothingAndFinishInTime() throws {
        let configuration = try PostgresTestServer.configuration()
        let schema = PostgresTestSchemas.make()
        do {
            let setup = try PersistentContainer(
                model: Self.model, store: PostgresStore(configuration: configuration, schema: schema))
            let context = setup.newContext()
            for index in 0..<Self.counters { Counter(context: context).name = "counter \(index)" }
            try context.save()
        }
        let tallies = Locked<[Tally]>([])
        let failures = Locked<[String]>([])
        let deadline = ContinuousClock.now + .milliseconds(Int64(Self.seconds * 1000))
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            do {
                let tally = try Self.work(worker, configuration: configuration, schema: schema, until: deadline)
                tallies.withLock { $0.append(tally) }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        let elapsed = ContinuousClock.now - start
        #expect(failures.withLock { $0 } == [])
        #expect(elapsed < .milliseconds(Int64(Self.seconds * 1000)) + .seconds(15), "no worker hung")
        let all = tallies.withLock { $0 }
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
            "load: \(Self.workers) containers, \(Self.counters) counters, \(elapsed): \(total) increments "
                + "(\(Int(Double(total) / Self.seconds(elapsed)))/s), \(all.map(\.conflicts).reduce(0, +)) conflicts "
                + "retried, p50 \(p50), p99 \(p99)")
    }

    /// One server: increments a counter (alternating) until `deadline`, retrying conflicts.
    private static func work(
        _ worker: Int, configuration: PostgresConfiguration, schema: String, until deadline: ContinuousClock.Instant
    )
        throws -> Tally
    {
        let container = try PersistentContainer(
            model: model, store: PostgresStore(configuration: configuration, schema: schema))
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
