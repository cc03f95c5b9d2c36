import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

/// The PostgreSQL server the tests use: the one `OBJECTGRAPH_POSTGRES_URL` names (`.ci/run` starts
/// one with scripts/postgres-server.sh and passes its URL), or else a private server this test
/// process starts once with that script, in a temporary folder, and stops when it exits.
///
/// When no server can be had, every test that needs one fails with the reason; they never skip
/// silently. Only outside CI (`CI` unset) can a developer without PostgreSQL turn them off, by
/// setting `OBJECTGRAPH_POSTGRES_TESTS=off`, which lists them as skipped.
enum PostgresTestServer {
    static let environment = ProcessInfo.processInfo.environment

    /// Whether the PostgreSQL tests run: always in CI, else unless turned off explicitly.
    static let isEnabled = environment["CI"] != nil || environment["OBJECTGRAPH_POSTGRES_TESTS"] != "off"

    /// The server's URL, or why there is none.
    static let url: Result<String, ServerUnavailable> = {
        if let url = environment["OBJECTGRAPH_POSTGRES_URL"], !url.isEmpty { return .success(url) }
        return startPrivateServer()
    }()

    /// Why no server could be started.
    struct ServerUnavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The configuration of the tests' server.
    static func configuration() throws -> PostgresConfiguration {
        try PostgresConfiguration(url: url.get())
    }

    /// A new connection to the tests' server.
    static func connect(statementTimeout: Duration? = nil) throws -> PostgresConnection {
        var configuration = try configuration()
        configuration.statementTimeout = statementTimeout
        return try PostgresConnection(configuration: configuration)
    }

    /// A table name no other test uses (tests run in parallel on one database).
    static func uniqueName(_ prefix: String = "t") -> String {
        "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
    }

    // MARK: - The private server

    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of the private server (short: a socket path holds at most 107 bytes).
    private static let folder = "/tmp/og-pg-\(getpid())-\(UUID().uuidString.prefix(6).lowercased())"

    private static func startPrivateServer() -> Result<String, ServerUnavailable> {
        let (status, output) = script("start")
        guard status == 0, let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgresql://")
        else {
            _ = script("stop")
            return .failure(
                ServerUnavailable(
                    description: "No PostgreSQL server for the tests: scripts/postgres-server.sh start failed "
                        + "(status \(status)): \(output.suffix(2000)). Install the postgresql package, or set "
                        + "OBJECTGRAPH_POSTGRES_URL to a server's URL."))
        }
        atexit { _ = PostgresTestServer.script("stop") }
        return .success(url)
    }

    /// Runs scripts/postgres-server.sh `command` on the private folder; its status and output.
    private static func script(_ command: String) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("scripts/postgres-server.sh").path, command, folder]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only when the PostgreSQL tests are on (see ``PostgresTestServer``).
    static var postgres: Self {
        .enabled(
            if: PostgresTestServer.isEnabled,
            "OBJECTGRAPH_POSTGRES_TESTS=off (outside CI) turns the PostgreSQL tests off")
    }
}

/// Moves a connection to another thread in a test that uses it there and nowhere else meanwhile.
final class Handoff<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: each test hands the value over once and does not touch it until the
    // other thread is done (it waits for it).
    let value: Value
    init(_ value: Value) { self.value = value }
}
