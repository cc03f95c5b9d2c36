import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

/// Each failure class of a PostgreSQL server, produced for real, gives its typed error.
@Suite(.postgres) struct PostgresErrorTests {
    /// A table with a unique key and a row `(1, 'one')`, dropped when `body` returns.
    private func withTable<T>(_ body: (String, PostgresConnection) throws -> T) throws -> T {
        let connection = try PostgresTestServer.connect()
        let table = PostgresTestServer.uniqueName()
        try connection.execute(
            "CREATE TABLE \(table) (k BIGINT PRIMARY KEY, v TEXT UNIQUE); INSERT INTO \(table) VALUES (1, 'one')")
        defer { try? connection.execute("DROP TABLE \(table)") }
        return try body(table, connection)
    }

    private func sqlState(_ error: PersistenceError?) -> String? { (error?.underlying as? PostgresError)?.sqlState }

    // MARK: - Lost connections

    @Test func aDroppedConnectionIsATypedError() throws {
        let (victim, killer) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
        #expect(
            try killer.rows("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(victim.backendProcessID))]) == [
                [.integer(1)]
            ])
        let error = #expect(throws: PersistenceError.self) { try victim.rows("SELECT 1") }
        #expect(error?.code == .ioFailure)
        #expect((error?.underlying as? PostgresError)?.isConnectionLost == true)
        #expect(error?.message.contains("was lost") == true)
        #expect(!victim.isUsable)
        let again = #expect(throws: PersistenceError.self) { try victim.rows("SELECT 1") }
        #expect(again?.code == .ioFailure, "a dead connection keeps failing the same way")
    }

    @Test func aConnectionDroppedDuringATransactionSavesNothing() throws {
        try withTable { table, killer in
            let victim = try PostgresTestServer.connect()
            try victim.beginWriteTransaction()
            try victim.run("INSERT INTO \(table) VALUES (2, 'two')")
            _ = try killer.rows("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(victim.backendProcessID))])
            let error = #expect(throws: PersistenceError.self) { try victim.commit() }
            #expect(error?.code == .ioFailure)
            #expect(sqlState(error) == "57P01" || sqlState(error) == "08006")
            #expect(error?.message.contains("Whether the commit took effect is unknown") == true)
            victim.rollback()
            #expect(try killer.rows("SELECT k FROM \(table)") == [[.integer(1)]])
        }
    }

    @Test func anIdleConnectionTheServerDroppedIsNotUsable() throws {
        let (victim, killer) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
        #expect(victim.isUsable)
        _ = try killer.rows("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(victim.backendProcessID))])
        // The server closes the socket after sending its error: wait until it has.
        let deadline = Date().addingTimeInterval(5)
        while victim.isUsable && Date() < deadline { usleep(10_000) }
        #expect(!victim.isUsable)
    }

    // MARK: - Timeouts and locks

    @Test func aStatementTimeoutIsTimedOut() throws {
        let connection = try PostgresTestServer.connect(statementTimeout: .milliseconds(100))
        let start = ContinuousClock.now
        let error = #expect(throws: PersistenceError.self) { try connection.rows("SELECT pg_sleep(10)") }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(error?.code == .timedOut)
        #expect(sqlState(error) == "57014")
        #expect(try connection.rows("SELECT 1") == [[.integer(1)]], "the connection stays usable")
    }

    @Test func aLockNotAvailableIsStoreLocked() throws {
        try withTable { table, holder in
            let other = try PostgresTestServer.connect()
            try holder.beginWriteTransaction()
            _ = try holder.rows("SELECT k FROM \(table) WHERE k = 1 FOR UPDATE")
            defer { holder.rollback() }
            let error = #expect(throws: PersistenceError.self) {
                try other.rows("SELECT k FROM \(table) WHERE k = 1 FOR UPDATE NOWAIT")
            }
            #expect(error?.code == .storeLocked)
            #expect(sqlState(error) == "55P03")
        }
    }

    // MARK: - Conflicts

    @Test func aSerializationFailureIsAConflict() throws {
        try withTable { table, first in
            let second = try PostgresTestServer.connect()
            try first.begin(.serializable, readOnly: false)
            try second.begin(.serializable, readOnly: false)
            _ = try first.rows("SELECT v FROM \(table) WHERE k = 1")
            _ = try second.rows("SELECT v FROM \(table) WHERE k = 1")
            try first.run("UPDATE \(table) SET v = 'first' WHERE k = 1")
            try first.commit()
            let error = #expect(throws: PersistenceError.self) {
                try second.run("UPDATE \(table) SET v = 'second' WHERE k = 1")
            }
            second.rollback()
            #expect(error?.code == .conflict)
            #expect(sqlState(error) == "40001")
            #expect(try first.rows("SELECT v FROM \(table)") == [[.text("first")]], "no lost update")
        }
    }

    @Test func aDeadlockIsAConflictForOneSideOnly() throws {
        try withTable { table, setup in
            try setup.run("INSERT INTO \(table) VALUES (2, 'two')")
            let (first, second) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
            for connection in [first, second] {
                try connection.execute("SET deadlock_timeout = '100ms'")
                try connection.beginWriteTransaction()
            }
            try first.run("UPDATE \(table) SET v = 'a1' WHERE k = 1")
            try second.run("UPDATE \(table) SET v = 'b2' WHERE k = 2")
            // The first waits for the second's row on another thread; the second then waits for the first's.
            let handoff = Handoff(first)
            let done = DispatchSemaphore(value: 0)
            let firstResult = Handoff(ResultBox())
            Thread.detachNewThread {
                firstResult.value.error =
                    Result { try handoff.value.run("UPDATE \(table) SET v = 'a2' WHERE k = 2") }
                    .error
                done.signal()
            }
            try waitUntilBlocked(first.backendProcessID, observer: setup)
            let secondError = Result { try second.run("UPDATE \(table) SET v = 'b1' WHERE k = 1") }.error
            if secondError != nil { second.rollback() } else { try second.commit() }
            done.wait()
            let errors = [firstResult.value.error, secondError].compactMap { $0 as? PersistenceError }
            #expect(errors.count == 1, "exactly one side is chosen as the victim: \(errors)")
            #expect(errors.first?.code == .conflict)
            #expect(sqlState(errors.first) == "40P01")
            first.rollback()
        }
    }

    @Test func aUniqueViolationIsAConflictThatNamesNoValue() throws {
        try withTable { table, connection in
            let error = #expect(throws: PersistenceError.self) {
                try connection.run("INSERT INTO \(table) VALUES ($1, $2)", [.integer(2), .text("one")])
            }
            #expect(error?.code == .conflict)
            #expect(sqlState(error) == "23505")
            #expect((error?.underlying as? PostgresError)?.constraintName == "\(table)_v_key")
            #expect(error?.message.contains("\(table)_v_key") == true)
            #expect(error?.message.contains("one") == false, "a stored value never reaches a message")
        }
    }

    @Test func aFailedWriteTransactionLeavesTheTableUnchanged() throws {
        try withTable { table, connection throws in
            #expect(throws: PersistenceError.self) {
                try connection.writeTransaction {
                    try connection.run("INSERT INTO \(table) VALUES (2, 'two'), (3, 'three')")
                    try connection.run("UPDATE \(table) SET v = 'uno' WHERE k = 1")
                    try connection.run("INSERT INTO \(table) VALUES (4, 'two')")
                }
            }
            #expect(try connection.rows("SELECT k, v FROM \(table)") == [[.integer(1), .text("one")]])
        }
    }

    @Test func aWriteInAReadTransactionIsReadOnlyStore() throws {
        try withTable { table, connection in
            try connection.beginReadTransaction()
            defer { connection.rollback() }
            let error = #expect(throws: PersistenceError.self) { try connection.run("DELETE FROM \(table)") }
            #expect(error?.code == .readOnlyStore)
            #expect(sqlState(error) == "25006")
        }
    }

    /// Waits until the server process `pid` waits for a lock.
    private func waitUntilBlocked(_ pid: Int32, observer: PostgresConnection) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let waiting = try observer.rows(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'",
                [.integer(Int64(pid))])
            if waiting == [[.integer(1)]] { return }
            usleep(5_000)
        }
        Issue.record("server process \(pid) never waited for a lock")
    }
}

/// Where a thread leaves its error for the test that waits for it.
final class ResultBox {
    var error: (any Error)?
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
