import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL schemas the tests make: named `og_test_<pid>_<random>`, dropped when the test
/// process exits; the first schema a process makes first sweeps away those of test processes
/// that are gone (a crash, a killed run). (The ObjectGraphTests target has the same helper, with
/// a trait that drops them after each test.)
enum PostgresTestSchemas {
    /// Schemas this process made and has not dropped yet.
    private static let created = Locked<Set<String>>([])

    private static let started: Void = {
        sweepStaleSchemas()
        atexit { PostgresTestSchemas.drop(PostgresTestSchemas.created.withLock { Array($0) }) }
    }()

    /// A schema name no other test uses, dropped when the process exits.
    static func make() -> String {
        _ = started
        let name = "og_test_\(getpid())_\(UUID().uuidString.prefix(8).lowercased())"
        created.withLock { _ = $0.insert(name) }
        return name
    }

    /// Drops `schemas` (and their backups), ignoring failures: a test's leftovers must not fail
    /// another test.
    static func drop(_ schemas: [String]) {
        guard let configuration = try? PostgresTestServer.configuration() else { return }
        for schema in schemas {
            try? PostgresStore.destroy(configuration: configuration, schema: schema, lockTimeout: .seconds(2))
            created.withLock { _ = $0.remove(schema) }
        }
    }

    /// Drops the `og_test_` schemas of test processes that no longer run (on this machine: the
    /// tests' server listens on a local socket).
    private static func sweepStaleSchemas() {
        guard let configuration = try? PostgresTestServer.configuration(),
            let connection = try? PostgresTestServer.connect()
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
}
