import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL schemas the tests make: named `og_test_<pid>_<random>`, dropped after each test
/// of a suite with the ``PostgresTestSchemas/Scope`` trait and at the latest when the test process
/// exits; the first schema a process makes first sweeps away those of test processes that are
/// gone (a crash, a killed run).
enum PostgresTestSchemas {
    /// Schemas this process made and has not dropped yet.
    private static let created = Locked<Set<String>>([])
    /// The schemas the running test made, when its suite drops them after each test.
    @TaskLocal static var made: Locked<[String]>?

    private static let started: Void = {
        sweepStaleSchemas()
        atexit { PostgresTestSchemas.drop(PostgresTestSchemas.created.withLock { Array($0) }) }
    }()

    /// A schema name no other test uses, dropped after the test (see the type's summary).
    static func make() -> String {
        _ = started
        let name = "og_test_\(getpid())_\(UUID().uuidString.prefix(8).lowercased())"
        created.withLock { _ = $0.insert(name) }
        made?.withLock { $0.append(name) }
        return name
    }

    /// Drops `schemas` (and their backups), ignoring failures: a test's leftovers must not fail
    /// another test.
    static func drop(_ schemas: [String]) {
        guard let url = PostgresTestStore.url, let configuration = try? PostgresConfiguration(url: url) else { return }
        for schema in schemas {
            try? PostgresStore.destroy(configuration: configuration, schema: schema, lockTimeout: .seconds(2))
            created.withLock { _ = $0.remove(schema) }
        }
    }

    /// Drops the `og_test_` schemas of test processes that no longer run (on this machine: the
    /// tests' server listens on a local socket).
    private static func sweepStaleSchemas() {
        guard let url = PostgresTestStore.url, let configuration = try? PostgresConfiguration(url: url),
            let connection = try? PostgresTestStore.connect(schema: "public")
        else { return }
        defer { connection.close() }
        let names =
            (try? connection.rows("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'og\\_test\\_%'"))?
            .compactMap { $0.first?.text } ?? []
        for name in names {
            let parts = name.split(separator: "_")
            guard parts.count >= 4, let pid = Int32(parts[2]), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? PostgresStore.destroy(configuration: configuration, schema: name, lockTimeout: .seconds(2))
        }
    }

    /// Drops the schemas each test of the suite made when the test ends.
    struct Scope: TestTrait, SuiteTrait, TestScoping {
        var isRecursive: Bool { true }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            guard testCase != nil || !test.isSuite else { return try await function() }
            let made = Locked<[String]>([])
            try await PostgresTestSchemas.$made.withValue(made) { try await function() }
            PostgresTestSchemas.drop(made.withLock { $0 })
        }
    }
}

extension Trait where Self == PostgresTestSchemas.Scope {
    /// Drops the PostgreSQL schemas each test makes when it ends.
    static var dropsPostgresSchemas: Self { Self() }
}
