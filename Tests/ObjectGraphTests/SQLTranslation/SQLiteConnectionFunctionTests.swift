import Foundation
import Testing

@testable import ObjectGraph

/// Swift functions and collations installed on a SQLite connection.
@Suite struct SQLiteConnectionFunctionTests {
    private func connection() throws -> SQLiteConnection {
        try SQLiteConnection(
            url: TemporaryDirectory.make().appendingPathComponent("functions.sqlite"), readOnly: false, create: true,
            busyTimeout: .seconds(1))
    }

    @Test func aFunctionReceivesAndReturnsEveryStorageClass() throws {
        let database = try connection()
        defer { database.close() }
        try database.createFunction(name: "echo", argumentCount: 1, deterministic: true) { $0[0] }
        for value: SQLValue in [
            .null, .integer(.min), .real(-0.5), .text(""), .text("é\u{0}🍎"), .blob([]), .blob([0, 255]),
        ] {
            #expect(try database.rows("SELECT echo(?1)", [value]) == [[value]])
        }
    }

    @Test func replacingAFunctionReleasesTheOldClosure() throws {
        final class Token {}
        let database = try connection()
        weak var released: Token?
        do {
            let token = Token()
            released = token
            try database.createFunction(name: "f", argumentCount: 0, deterministic: false) { _ in
                withExtendedLifetime(token) { .integer(1) }
            }
        }
        #expect(released != nil)
        try database.createFunction(name: "f", argumentCount: 0, deterministic: false) { _ in .integer(2) }
        #expect(released == nil)
        #expect(try database.rows("SELECT f()") == [[.integer(2)]])
        database.close()
    }

    @Test func aCollationOrdersWithItsClosure() throws {
        let database = try connection()
        defer { database.close() }
        try database.createCollation(name: "reversed") { lhs, rhs in lhs < rhs ? 1 : (lhs == rhs ? 0 : -1) }
        try database.execute("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('a'), ('c'), ('b')")
        #expect(
            try database.rows("SELECT v FROM t ORDER BY v COLLATE reversed") == [
                [.text("c")], [.text("b")], [.text("a")],
            ])
    }

    @Test func aClosedConnectionTakesNoFunctionSayingItIsClosed() throws {
        let database = try connection()
        database.close()
        let error = try #require(throws: PersistenceError.self) {
            try database.createFunction(name: "f", argumentCount: 0, deterministic: true) { _ in .null }
        }
        #expect(error.code == .storeClosed)
    }
}
