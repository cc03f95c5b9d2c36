import Foundation
import ObjectGraph
import ObjectGraphPostgres

/// PostgreSQL stores for the shared suites (the store conformance, predicate and integrity
/// tests): each on the server `OBJECTGRAPH_POSTGRES_URL` names (`.ci/run` and
/// scripts/postgres-server.sh start one), in a PostgreSQL schema of its own, so that tests run in
/// parallel on one database.
///
/// The PostgreSQL cases run when the URL is set, and always in CI (`CI` set): there a missing
/// URL fails each of them, with the reason, rather than skipping them.
enum PostgresTestStore {
    static let environment = ProcessInfo.processInfo.environment

    /// The server's URL, if one is configured.
    static let url = environment["OBJECTGRAPH_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the PostgreSQL cases run.
    static let isEnabled = url != nil || environment["CI"] != nil

    /// A schema name no other test uses, dropped when the test ends (see `PostgresTestSchemas`).
    static func uniqueSchema() -> String { PostgresTestSchemas.make() }

    /// A new store in a fresh schema; without a server, a store whose every call fails saying so.
    static func makeStore(schema: String = uniqueSchema(), migration: MigrationOptions = .automatic)
        -> any PersistentStore
    {
        guard let url, let store = try? PostgresStore(url: url, schema: schema, migration: migration) else {
            return MissingServerStore()
        }
        return store
    }

    /// A description of a new store in a fresh schema (see ``makeStore(schema:)``).
    static func makeDescription(schema: String = uniqueSchema()) -> StoreDescription {
        guard let url, let description = try? StoreDescription.postgres(url: url, schema: schema) else {
            return .custom("no PostgreSQL server") { _ in MissingServerStore() }
        }
        return description
    }

    /// A connection to the server with `schema` on its search path, for tests that run SQL of
    /// their own on a store's tables.
    static func connect(schema: String) throws -> PostgresConnection {
        guard let url else { throw MissingServerStore.NoServer() }
        let connection = try PostgresConnection(configuration: PostgresConfiguration(url: url))
        try connection.execute("SET search_path TO \(connection.dialect.quote(schema))")
        return connection
    }

    /// Every row of every table of `schema`, as text, tables by name and rows in order: what
    /// stands for a file's bytes when a test checks that a store was left as it was.
    static func contents(of schema: String) throws -> [UInt8] {
        let connection = try connect(schema: schema)
        defer { connection.close() }
        var text = ""
        let tables = try connection.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
            [.text(schema)])
        for name in tables.compactMap({ $0.first?.text }) {
            let table = connection.dialect.quote(name)
            text += "\(name)\n"
            for row in try connection.rows("SELECT t::text FROM \(table) AS t ORDER BY 1") {
                text += (row.first?.text ?? "-") + "\n"
            }
        }
        return Array(text.utf8)
    }

    /// The store of a PostgreSQL case when no server is configured (in CI): it fails the test.
    final class MissingServerStore: PersistentStore {
        struct NoServer: Error, CustomStringConvertible {
            var description: String {
                "OBJECTGRAPH_POSTGRES_URL is not set (or not a PostgreSQL URL), and CI is: the PostgreSQL tests "
                    + "fail rather than skip. Start a server with scripts/postgres-server.sh start and export its URL."
            }
        }

        func load(model: ManagedObjectModel) throws -> StoreSnapshot { throw NoServer() }
        func save(_ changes: StoreChangeSet) throws { throw NoServer() }
        func close() {}
    }
}
