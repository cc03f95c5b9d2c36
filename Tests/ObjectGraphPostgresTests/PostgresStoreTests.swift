import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

/// An account of the PostgreSQL store tests.
final class Ledger: ManagedObject {
    @Attribute var name = ""
    @Attribute var balance: Int64 = 0
    @Attribute var weight = 0.0
    @Attribute var ratio: Float = 0
}

@Suite(.postgres) struct PostgresStoreTests {
    static let model = try! ManagedObjectModel(Ledger.self)

    /// A store in `schema` (a new one by default) on the tests' server.
    private func makeStore(
        _ schema: String = PostgresTestSchemas.make(), statementTimeout: Duration? = nil,
        lockTimeout: Duration = .seconds(5)
    ) throws -> PostgresStore {
        var configuration = try PostgresTestServer.configuration()
        configuration.statementTimeout = statementTimeout
        return PostgresStore(configuration: configuration, schema: schema, lockTimeout: lockTimeout)
    }

    private func container(_ store: PostgresStore) throws -> PersistentContainer {
        try PersistentContainer(model: Self.model, store: store)
    }

    @discardableResult
    private func insert(_ context: ManagedContext, _ name: String, balance: Int64 = 0) -> Ledger {
        let ledger = Ledger(context: context)
        ledger.name = name
        ledger.balance = balance
        return ledger
    }

    private func names(_ container: PersistentContainer) throws -> [String] {
        try container.newContext().fetch(Ledger.fetchRequest()).map(\.name)
    }

    private func backend(_ store: PostgresStore) -> Int32 {
        store.state.withLock { $0?.connection.backendProcessID ?? 0 }
    }

    /// Ends `store`'s session from another connection and waits until the server has closed it.
    private func terminateSession(of store: PostgresStore) throws {
        try Self.terminate(Int64(backend(store)))
    }

    /// Ends the session of server process `pid` and waits until it is gone.
    private static func terminate(_ pid: Int64) throws {
        let killer = try PostgresTestServer.connect()
        _ = try killer.rows("SELECT pg_terminate_backend($1::integer)", [.integer(pid)])
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline,
            try !killer.rows("SELECT 1 FROM pg_stat_activity WHERE pid = $1::integer", [.integer(pid)]).isEmpty
        {
            usleep(10_000)
        }
    }

    // MARK: - Several servers on one database

    @Test func anotherServersSavesReachThisContainer() throws {
        let schema = PostgresTestSchemas.make()
        let (a, b) = (try container(makeStore(schema)), try container(makeStore(schema)))
        let writer = a.newContext()
        let rent = insert(writer, "rent", balance: 5)
        let food = insert(writer, "food")
        try writer.save()
        let reader = b.newContext()
        reader.automaticallyMergesChanges = true
        let seen = try reader.fetch(Ledger.fetchRequest())
        #expect(seen.map(\.name) == ["rent", "food"])
        rent.balance = 7
        writer.delete(food)
        try writer.save()
        #expect(try reader.fetch(Ledger.fetchRequest()).map { "\($0.name) \($0.balance)" } == ["rent 7"])
        #expect(seen[0].balance == 7, "the registered object merged the other server's update")
        let history = try #require(b.store as? PostgresStore).fetchHistory(after: nil)
        #expect(history.map { $0.changes.count } == [2, 2])
    }

    @Test func aConcurrentUpdateIsAConflictAndNeverALostUpdate() throws {
        let schema = PostgresTestSchemas.make()
        let (a, b) = (try container(makeStore(schema)), try container(makeStore(schema)))
        let setup = a.newContext()
        insert(setup, "shared", balance: 10)
        try setup.save()
        let (one, two) = (a.newContext(), b.newContext())
        let first = try one.fetch(Ledger.fetchRequest())[0]
        let second = try two.fetch(Ledger.fetchRequest())[0]
        first.balance += 1
        second.balance += 1
        try one.save()
        let error = #expect(throws: PersistenceError.self) { try two.save() }
        #expect(error?.code == .conflict)
        #expect(error?.objectID == second.objectID)
        // Refreshed with the other server's save, the second increment lands on top of the first.
        two.refresh(second, mergeChanges: false)
        second.balance += 1
        try two.save()
        #expect(try a.newContext().fetch(Ledger.fetchRequest()).map(\.balance) == [12])
    }

    @Test func twoServersOpeningANewSchemaAtOnceCreateItOnce() async throws {
        let schema = PostgresTestSchemas.make()
        let configuration = try PostgresTestServer.configuration()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let container = try PersistentContainer(
                        model: Self.model, store: PostgresStore(configuration: configuration, schema: schema))
                    let context = container.newContext()
                    Ledger(context: context).name = "server \(index)"
                    try context.save()
                    return try context.count(for: Ledger.fetchRequest())
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.count == 4)
        #expect(try names(container(makeStore(schema))).sorted() == (0..<4).map { "server \($0)" })
    }

    // MARK: - Values PostgreSQL cannot hold as they are

    @Test func nanPayloadsNegativeZeroAndFloatNaNsRoundTripBitForBit() throws {
        let store = try makeStore()
        let doubles: [Double] = [.nan, -.nan, Double(nan: 0x1234, signaling: false), -0.0, .infinity]
        let floats: [Float] = [.nan, Float(nan: 7, signaling: false), -Float.nan, -0.0, .signalingNaN]
        do {
            let context = try container(store).newContext()
            for (index, (double, float)) in zip(doubles, floats).enumerated() {
                let ledger = insert(context, "\(index)")
                ledger.weight = double
                ledger.ratio = float
            }
            try context.save()
        }
        let read = try container(store).newContext().fetch(Ledger.fetchRequest())
        #expect(read.map(\.weight.bitPattern) == doubles.map(\.bitPattern))
        #expect(read.map(\.ratio.bitPattern) == floats.map(\.bitPattern))
    }

    @Test func textWithNULRoundTripsAndKeepsItsOrderInTheDatabase() throws {
        let store = try makeStore()
        let texts = ["a\u{0}b", "a", "a\u{1}", "\u{0}", "a\u{0}", "\u{1}\u{1}\u{0}", "plain", "a\u{2}"]
        do {
            let context = try container(store).newContext()
            for text in texts { insert(context, text) }
            try context.save()
        }
        #expect(try names(container(store)) == texts)
        let connection = try PostgresTestServer.connect()
        try connection.execute("SET search_path TO \(connection.dialect.quote(store.schema!))")
        let ordered = try connection.rows("SELECT _key FROM \"Ledger\" ORDER BY name COLLATE \"C\"").map {
            texts[Int($0[0].integer!) - 1]
        }
        #expect(ordered == texts.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    @Test func metadataWithNULIsATypedErrorAndSavesNothing() throws {
        let store = try makeStore()
        let container = try container(store)
        let context = container.newContext()
        insert(context, "kept")
        try context.save()
        let error = #expect(throws: PersistenceError.self) { try container.setStoreMetadata(["bad\u{0}key": "value"]) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.key == "bad\u{0}key")
        #expect(error?.message.contains("NUL") == true)
        #expect(try self.container(makeStore(store.schema!)).storeMetadata.isEmpty)
    }

    @Test func aNameLongerThanPostgreSQLKeepsIsInvalidModel() throws {
        final class LongNames: ManagedObject {
            @Attribute(indexed: true) var anAttributeWhoseIndexNameIsLongerThanSixtyThreeBytes = ""
        }
        let model = try ManagedObjectModel(LongNames.self)
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: model, store: makeStore())
        }
        #expect(error?.code == .invalidModel)
        #expect(error?.message.contains("63 bytes") == true)
    }

    // MARK: - Failures leave no partial save

    /// A schema whose `Ledger` table has a trigger that runs `body` (PL/pgSQL) on every insert.
    private func storeWithTrigger(_ body: String, statementTimeout: Duration? = nil) throws -> PostgresStore {
        let schema = PostgresTestSchemas.make()
        _ = try container(makeStore(schema))
        let connection = try PostgresTestServer.connect()
        let q = connection.dialect.quote(schema)
        try connection.execute(
            "CREATE FUNCTION \(q).fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \(body); RETURN NEW; END $$")
        try connection.execute(
            "CREATE TRIGGER fail BEFORE INSERT ON \(q).\"Ledger\" FOR EACH ROW WHEN (NEW.name = 'fail') "
                + "EXECUTE FUNCTION \(q).fail()")
        return try makeStore(schema, statementTimeout: statementTimeout)
    }

    /// Saves "before" alone, then "fine" and "fail" together, expecting the second save to fail
    /// with `code` and to leave only "before" in the store.
    private func expectNoPartialSave(_ store: PostgresStore, _ code: PersistenceError.Code) throws
        -> PersistenceError?
    {
        let container = try container(store)
        let context = container.newContext()
        insert(context, "before")
        try context.save()
        insert(context, "fine")
        insert(context, "fail")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == code)
        #expect(context.hasChanges, "the context keeps its unsaved changes")
        #expect(try names(self.container(makeStore(store.schema!))) == ["before"])
        return error
    }

    @Test func aSerializationFailureIsAConflictAndSavesNothing() throws {
        let store = try storeWithTrigger("RAISE EXCEPTION 'simulated' USING ERRCODE = '40001'")
        let error = try expectNoPartialSave(store, .conflict)
        #expect((error?.underlying as? PostgresError)?.sqlState == "40001")
    }

    @Test func aStatementTimeoutIsTimedOutAndSavesNothing() throws {
        let store = try storeWithTrigger("PERFORM pg_sleep(5)", statementTimeout: .milliseconds(200))
        let start = ContinuousClock.now
        _ = try expectNoPartialSave(store, .timedOut)
        #expect(ContinuousClock.now - start < .seconds(4))
    }

    @Test func aConnectionDroppedWhileSavingIsAnIOFailureAndSavesNothing() throws {
        let store = try makeStore()
        let container = try container(store)
        let context = container.newContext()
        insert(context, "before")
        try context.save()
        let victim = Int64(backend(store))
        store.beforeCommit.withLock {
            $0 = { try Self.terminate(victim) }
        }
        insert(context, "lost")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        store.beforeCommit.withLock { $0 = nil }
        #expect(error?.code == .ioFailure)
        #expect(try names(self.container(makeStore(store.schema!))) == ["before"])
        try context.save()
        #expect(try names(self.container(makeStore(store.schema!))) == ["before", "lost"])
        #expect(backend(store) != Int32(victim), "the next save connected again")
    }

    @Test func aReadAfterTheServerDroppedTheSessionConnectsAgain() throws {
        let schema = PostgresTestSchemas.make()
        let store = try makeStore(schema)
        let (reader, writer) = (try container(store), try container(makeStore(schema)))
        try terminateSession(of: store)
        let context = writer.newContext()
        insert(context, "after the drop")
        try context.save()
        #expect(try names(reader) == ["after the drop"])
        #expect(try store.fetchHistory(after: nil).count == 1)
    }

    @Test func anotherServerHoldingTheWriteLockIsStoreLocked() throws {
        let schema = PostgresTestSchemas.make()
        let store = try makeStore(schema, lockTimeout: .milliseconds(200))
        let context = try container(store).newContext()
        let holder = try PostgresTestServer.connect()
        holder.writeLockName = "objectgraph:" + schema
        try holder.beginWriteTransaction()
        insert(context, "waits")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .storeLocked)
        holder.rollback()
        try context.save()
        #expect(try names(container(makeStore(schema))) == ["waits"])
    }

    // MARK: - Store descriptions

    @Test func postgresDescriptionMakesAPostgresStore() throws {
        let url = try PostgresTestServer.url.get()
        let schema = PostgresTestSchemas.make()
        var description = try StoreDescription.postgres(url: url, schema: schema)
        #expect(description.kind == .custom)
        #expect(description == (try StoreDescription.postgres(url: url, schema: schema)))
        #expect(description != (try StoreDescription.postgres(url: url, schema: schema + "x")))
        #expect(description.description.contains("PostgreSQL"))
        let container = try PersistentContainer(model: Self.model, storeDescription: description)
        let context = container.newContext()
        insert(context, "described")
        try context.save()
        description.isReadOnly = true
        let store = try #require(description.makeStore() as? PostgresStore)
        #expect(store.isReadOnly && store.schema == schema)
        let readOnly = try PersistentContainer(model: Self.model, store: store)
        #expect(try names(readOnly) == ["described"])
        let readOnlyContext = readOnly.newContext()
        insert(readOnlyContext, "refused")
        #expect(throws: PersistenceError.self) { try readOnlyContext.save() }
    }

    @Test func anUnreachableServerIsAnIOFailure() throws {
        let description = StoreDescription.postgres(host: "/nonexistent-socket-dir", database: "none")
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: Self.model, storeDescription: description)
        }
        #expect(error?.code == .ioFailure)
    }
}
