import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

@Suite(.postgres) struct PostgresConnectionPoolTests {
    private func pool(maximum: Int, wait: Duration = .seconds(5)) throws -> PostgresConnectionPool {
        PostgresConnectionPool(
            configuration: try PostgresTestServer.configuration(), maximumConnections: maximum, waitTimeout: wait)
    }

    @Test func aConnectionIsReusedWhenItComesBack() throws {
        let pool = try pool(maximum: 2)
        let first = try pool.withConnection { $0.backendProcessID }
        let second = try pool.withConnection { $0.backendProcessID }
        #expect(first == second)
        #expect(pool.counts == (open: 1, idle: 1))
    }

    @Test func aCallerWaitingLongerThanTheTimeoutGetsTimedOut() throws {
        let pool = try pool(maximum: 2, wait: .milliseconds(200))
        try pool.withConnection { _ in
            try pool.withConnection { _ in
                let start = ContinuousClock.now
                let error = #expect(throws: PersistenceError.self) { try pool.withConnection { _ in } }
                #expect(error?.code == .timedOut)
                #expect(error?.message.contains("All 2 connections") == true)
                #expect(ContinuousClock.now - start >= .milliseconds(190))
                #expect(pool.counts.open == 2, "never more than the maximum")
            }
        }
        #expect(pool.counts == (open: 2, idle: 2))
    }

    @Test func aWaitingCallerGetsTheConnectionThatComesBack() throws {
        let pool = try pool(maximum: 1, wait: .seconds(10))
        let lent = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let holder = Handoff(pool)
        Thread.detachNewThread {
            _ = try? holder.value.withConnection { _ in
                lent.signal()
                usleep(200_000)
            }
            returned.signal()
        }
        lent.wait()
        let start = ContinuousClock.now
        #expect(try pool.withConnection { try $0.rows("SELECT 1") } == [[.integer(1)]])
        #expect(ContinuousClock.now - start >= .milliseconds(100), "it waited for the other caller")
        returned.wait()
        #expect(pool.counts.open == 1)
    }

    @Test func aConnectionTheServerDroppedIsReplaced() throws {
        let pool = try pool(maximum: 1)
        let killer = try PostgresTestServer.connect()
        let first = try pool.withConnection { $0.backendProcessID }
        _ = try killer.rows("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(first))])
        usleep(100_000)
        let (second, rows) = try pool.withConnection { ($0.backendProcessID, try $0.rows("SELECT 1")) }
        #expect(second != first)
        #expect(rows == [[.integer(1)]])
        #expect(pool.counts.open == 1)
    }

    @Test func aConnectionThatFailedMidCallIsNotKept() throws {
        let pool = try pool(maximum: 1)
        let killer = try PostgresTestServer.connect()
        let error = #expect(throws: PersistenceError.self) {
            try pool.withConnection { connection in
                _ = try killer.rows(
                    "SELECT pg_terminate_backend($1::integer)", [.integer(Int64(connection.backendProcessID))])
                _ = try connection.rows("SELECT 1")
            }
        }
        #expect(error?.code == .ioFailure)
        #expect(pool.counts == (open: 0, idle: 0))
        #expect(try pool.withConnection { try $0.rows("SELECT 1") } == [[.integer(1)]])
    }

    @Test func aTransactionLeftOpenIsRolledBack() throws {
        let pool = try pool(maximum: 1)
        let table = PostgresTestServer.uniqueName()
        try pool.withConnection { try $0.execute("CREATE TABLE \(table) (k BIGINT)") }
        defer { _ = try? pool.withConnection { try $0.execute("DROP TABLE \(table)") } }
        try pool.withConnection { connection in
            try connection.beginWriteTransaction()
            try connection.run("INSERT INTO \(table) VALUES (1)")
        }
        #expect(
            try pool.withConnection { ($0.isInTransaction, try $0.rows("SELECT count(*) FROM \(table)")) } == (
                false, [[.integer(0)]]
            ))
    }

    @Test func aServerThatCannotBeReachedFreesItsSlot() throws {
        let missing = PostgresConfiguration(host: "/tmp/no-server-\(UUID().uuidString.prefix(8))", user: "postgres")
        let pool = PostgresConnectionPool(
            configuration: missing, maximumConnections: 1, waitTimeout: .milliseconds(100))
        for _ in 0..<2 {
            let error = #expect(throws: PersistenceError.self) { try pool.withConnection { _ in } }
            #expect(error?.code == .ioFailure, "not timedOut: the failed attempt gave its slot back")
        }
        #expect(pool.counts == (open: 0, idle: 0))
    }

    @Test func aClosedPoolLendsNothing() throws {
        let pool = try pool(maximum: 1)
        try pool.withConnection { _ in }
        pool.close()
        #expect(pool.counts == (open: 0, idle: 0))
        let error = #expect(throws: PersistenceError.self) { try pool.withConnection { _ in } }
        #expect(error?.code == .storeClosed)
    }
}
