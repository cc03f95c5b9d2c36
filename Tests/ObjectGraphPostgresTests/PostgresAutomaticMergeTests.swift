import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

/// Another server's save reaches a container's contexts without a fetch: the store listens on a
/// session of its own and wakes the container, which merges and publishes the save.
@Suite(.postgres) struct PostgresAutomaticMergeTests {
    static let model = try! ManagedObjectModel(Ledger.self)

    private func makeStore(_ schema: String) throws -> PostgresStore {
        PostgresStore(configuration: try PostgresTestServer.configuration(), schema: schema)
    }

    /// The first save `container` publishes that came from another server, within `timeout`.
    private func externalSave(of container: PersistentContainer, within timeout: Duration) async
        -> SaveNotification?
    {
        let saves = container.saves
        return await withTaskGroup(of: SaveNotification?.self) { group in
            group.addTask {
                for await save in saves where save.origin.name == "another process" { return save }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func anotherServersSaveReachesAContextThatMergesWithoutAFetch() async throws {
        let schema = PostgresTestSchemas.make()
        let serverA = try PersistentContainer(model: Self.model, store: try makeStore(schema))
        let serverB = try PersistentContainer(model: Self.model, store: try makeStore(schema))
        let viewContext = serverA.newContext()
        viewContext.automaticallyMergesChanges = true
        let writer = serverB.newContext()
        let ledger = Ledger(context: writer)
        ledger.name = "cash"
        ledger.balance = 1
        try writer.save()
        let shown = try #require(try viewContext.fetch(Ledger.fetchRequest()).first)
        #expect(shown.balance == 1)

        async let arrival = externalSave(of: serverA, within: .seconds(5))
        try await Task.sleep(for: .milliseconds(100))
        ledger.balance = 2
        try writer.save()
        let save = try #require(await arrival, "server A published B's save within 5 seconds, with no fetch")
        #expect(save.updatedObjectIDs.contains(shown.objectID))
        // The context merged it on its own: an object lookup (not a fetch) shows the new balance.
        let lookedUp = try #require(try viewContext.existingObject(with: shown.objectID) as? Ledger)
        #expect(lookedUp.balance == 2)
    }

    /// The sessions whose last statement was the `LISTEN` of the store in `schema`.
    private func listeningSessions(_ schema: String) throws -> Int {
        let observer = try PostgresTestServer.connect()
        defer { observer.close() }
        let listen = "LISTEN " + observer.dialect.quote(PostgresStoreState.channel(schema))
        return Int(
            try observer.rows("SELECT count(*) FROM pg_stat_activity WHERE query = $1", [.text(listen)])
                .first?.first?.integer ?? -1)
    }

    @Test func theListenerStopsWhenTheContainerGoes() throws {
        let schema = PostgresTestSchemas.make()
        let store = try makeStore(schema)
        do {
            let container = try PersistentContainer(model: Self.model, store: store)
            #expect(store.changeListener.withLock { $0 } != nil)
            let deadline = Date().addingTimeInterval(5)
            while try listeningSessions(schema) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            #expect(try listeningSessions(schema) == 1, "the listener's own session")
            withExtendedLifetime(container) {}
        }
        #expect(store.changeListener.withLock { $0 } == nil)
        let deadline = Date().addingTimeInterval(5)
        while try listeningSessions(schema) > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try listeningSessions(schema) == 0, "the listener closed its session")
    }
}
