import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

@Suite(.postgres) struct PostgresConnectionTests {
    /// The value `SELECT $1` gives back for `value`, through a column of `type`.
    private func roundTrip(_ values: [SQLValue], type: String) throws -> [SQLValue] {
        let connection = try PostgresTestServer.connect()
        let table = PostgresTestServer.uniqueName()
        try connection.execute("CREATE TEMPORARY TABLE \(table) (position BIGINT, value \(type))")
        for (position, value) in values.enumerated() {
            try connection.run(
                "INSERT INTO \(table) (position, value) VALUES ($1, $2)", [.integer(Int64(position)), value])
        }
        return try connection.rows("SELECT value FROM \(table) ORDER BY position").map { $0[0] }
    }

    // MARK: - Values

    @Test func integersRoundTrip() throws {
        let values: [SQLValue] = [0, 1, -1, .max, .min, 1 << 53 + 1].map { .integer($0) } + [.null]
        #expect(try roundTrip(values, type: "BIGINT") == values)
    }

    @Test func doublesRoundTripBitForBit() throws {
        let numbers: [Double] = [
            0, -0.0, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNormalMagnitude,
            .pi, 0.1, 1e300,
        ]
        let back = try roundTrip(numbers.map { .real($0) }, type: "DOUBLE PRECISION")
        #expect(back.count == numbers.count)
        for (number, value) in zip(numbers, back) {
            guard case .real(let read) = value else {
                Issue.record("\(number) came back as \(value)")
                continue
            }
            #expect(read.bitPattern == number.bitPattern, "\(number) came back as \(read)")
        }
    }

    @Test func nanThroughTheColumnCodingRoundTrips() throws {
        // SQLColumnCoding stores a NaN as its bit pattern (a blob): the PostgreSQL dialect's column
        // for it is BYTEA. A payload-carrying NaN keeps its payload.
        let nans: [StoreValue] = [
            .double(.nan), .double(-.nan), .double(Double(nan: 0x1234, signaling: false)),
            .float(.nan), .float(Float(nan: 7, signaling: false)),
        ]
        let encoded = nans.map { SQLColumnCoding.encode($0) }
        #expect(encoded.allSatisfy { if case .blob = $0 { true } else { false } })
        let back = try roundTrip(encoded, type: SQLDialect.postgreSQL.typeName(.blob))
        for (original, value) in zip(nans, back) {
            switch (original, SQLColumnCoding.decode(value, as: original.isFloat ? .float : .double)) {
            case (.double(let a), .double(let b)?): #expect(a.bitPattern == b.bitPattern)
            case (.float(let a), .float(let b)?): #expect(a.bitPattern == b.bitPattern)
            case (_, let decoded): Issue.record("\(original) came back as \(String(describing: decoded))")
            }
        }
    }

    @Test func everyDoubleThroughTheColumnCodingRoundTripsInItsColumn() throws {
        let numbers: [Double] = [-0.0, .infinity, -.infinity, .leastNonzeroMagnitude, 1.5]
        let type = SQLDialect.postgreSQL.typeName(SQLColumnCoding.columnType(.double))
        let back = try roundTrip(numbers.map { SQLColumnCoding.encode(.double($0)) }, type: type)
        let decoded = back.map { SQLColumnCoding.decode($0, as: .double) }
        #expect(
            decoded.map { $0.flatMap { if case .double(let d) = $0 { d.bitPattern } else { nil } } }
                == numbers.map(\.bitPattern))
    }

    @Test func textRoundTrips() throws {
        let texts = [
            "", "plain", "héllo wörld", "👩‍👩‍👧‍👦 family", "e\u{301} (decomposed)", "日本語のテキスト", "quote ' and \" and \\",
            "line\nbreak\ttab", String(repeating: "ünïcødé ", count: 700_000),
        ]
        let back = try roundTrip(texts.map { .text($0) } + [.null], type: "TEXT")
        #expect(back == texts.map { .text($0) } + [.null])
    }

    @Test func textHoldingANULIsATypedError() throws {
        let error = #expect(throws: PersistenceError.self) { try roundTrip([.text("a\u{0}b")], type: "TEXT") }
        #expect(error?.code == .typeMismatch)
        #expect((error?.underlying as? PostgresError)?.sqlState == "22021")
    }

    @Test func blobsRoundTrip() throws {
        let large = (0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let blobs: [SQLValue] = [.blob([]), .blob([0]), .blob(Array(0...255)), .blob(large), .null]
        let back = try roundTrip(blobs, type: "BYTEA")
        #expect(back == blobs)
        #expect(back[0] != .null, "an empty blob is not NULL")
    }

    @Test func parametersTakeTheirTypeFromTheirValue() throws {
        let connection = try PostgresTestServer.connect()
        let values: [SQLValue] = [.integer(42), .real(-0.0), .text("x"), .blob([1, 2]), .null]
        let row = try connection.rows("SELECT $1, $2, $3, $4, $5::bigint", values)
        #expect(row.count == 1)
        #expect(row.first?[0] == .integer(42) && row.first?[2] == .text("x") && row.first?[3] == .blob([1, 2]))
        #expect(row.first?[4] == .null)
        if case .real(let zero)? = row.first?[1] { #expect(zero.sign == .minus) } else { Issue.record("not a real") }
    }

    @Test func otherColumnTypesReadAsTheNearestValue() throws {
        let connection = try PostgresTestServer.connect()
        let row = try connection.rows(
            "SELECT true, false, 7::int4, (-3)::int2, 2.5::real, 'name'::varchar, 'c'::char(2), "
                + "SUM(x), AVG(x), SUM(x) * 1e10::numeric, (-1234567890123)::numeric, 'NaN'::numeric, 1.25::numeric "
                + "FROM (VALUES (9223372036854775807::bigint), (1::bigint)) AS v(x)")[0]
        #expect(
            row[0...6] == [.integer(1), .integer(0), .integer(7), .integer(-3), .real(2.5), .text("name"), .text("c ")])
        #expect(row[7] == .real(9_223_372_036_854_775_808), "a sum beyond Int64 is a real")
        #expect(row[8] == .integer(4_611_686_018_427_387_904), "an AVG the server gives scale 0 is whole")
        #expect(try connection.rows("SELECT AVG(x) FROM (VALUES (3), (4)) AS v(x)") == [[.real(3.5)]])
        #expect(row[9] == .real(9.223372036854775808e28))
        #expect(row[10] == .integer(-1_234_567_890_123))
        if case .real(let nan) = row[11] { #expect(nan.isNaN) } else { Issue.record("numeric NaN: \(row[11])") }
        #expect(row[12] == .real(1.25))
        #expect(try connection.rows("SELECT SUM(x) FROM (VALUES (1), (2)) AS v(x)") == [[.integer(3)]])
    }

    @Test func parametersNotBoundAreNull() throws {
        let connection = try PostgresTestServer.connect()
        #expect(try connection.rows("SELECT $1::bigint IS NULL, $2::text") == [[.integer(1), .null]])
        #expect(try connection.rows("SELECT $1::bigint IS NULL, $2::text", [.integer(5)]) == [[.integer(0), .null]])
    }

    // MARK: - Statements

    @Test func statementsAreCachedByTextAndPreparedOncePerParameterTypes() throws {
        let connection = try PostgresTestServer.connect()
        let sql = "SELECT $1::text IS NOT NULL"
        #expect(try connection.statement(sql) === connection.statement(sql))
        for value: SQLValue in [.text("a"), .text("b"), .null, .null, .text("c")] {
            #expect(try connection.rows(sql, [value]).count == 1)
        }
        let prepared = try connection.rows(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", [.text(sql)])
        #expect(prepared == [[.integer(2)]], "one for text, one for NULL")
    }

    @Test func changedRowCountCountsWrittenRowsOnly() throws {
        let connection = try PostgresTestServer.connect()
        let table = PostgresTestServer.uniqueName()
        try connection.execute("CREATE TEMPORARY TABLE \(table) (k BIGINT PRIMARY KEY, v TEXT)")
        #expect(try connection.run("INSERT INTO \(table) VALUES (1, 'a'), (2, 'b'), (3, 'c')") == 3)
        #expect(try connection.run("UPDATE \(table) SET v = 'z' WHERE k >= $1", [.integer(2)]) == 2)
        _ = try connection.rows("SELECT * FROM \(table)")
        #expect(connection.changedRowCount == 2, "a query leaves the count of the last write")
        #expect(try connection.rows("INSERT INTO \(table) VALUES (4, 'd') RETURNING k") == [[.integer(4)]])
        #expect(connection.changedRowCount == 1)
        #expect(try connection.run("DELETE FROM \(table) WHERE k > $1", [.integer(0)]) == 4)
    }

    @Test func aStatementRunsAgainAfterReset() throws {
        let connection = try PostgresTestServer.connect()
        let statement = try connection.statement("SELECT generate_series(1, $1)")
        for count in [3, 1, 0] {
            try statement.bind(.integer(Int64(count)), at: 1)
            var rows: [SQLValue] = []
            while try statement.step() { rows.append(statement.column(0)) }
            #expect(rows == (0..<count).map { .integer(Int64($0 + 1)) })
            #expect(try statement.step() == false)
            statement.reset()
        }
    }

    @Test func badSQLIsATypedErrorAndTheConnectionStaysUsable() throws {
        let connection = try PostgresTestServer.connect()
        let error = #expect(throws: PersistenceError.self) { try connection.rows("SELEKT 1") }
        #expect(error?.code == .ioFailure)
        #expect((error?.underlying as? PostgresError)?.sqlState == "42601")
        #expect(try connection.rows("SELECT 1") == [[.integer(1)]])
    }

    @Test func aParameterIndexOutsideTheRangeIsATypedError() throws {
        let connection = try PostgresTestServer.connect()
        let statement = try connection.statement("SELECT $1")
        for index in [0, -1, 65_536] {
            let error = #expect(throws: PersistenceError.self) { try statement.bind(.integer(1), at: index) }
            #expect(error?.code == .outOfRange)
        }
    }

    // MARK: - Transactions

    @Test func aCommittedTransactionIsSeenByAnotherConnection() throws {
        let (writer, reader) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
        let table = PostgresTestServer.uniqueName()
        try writer.execute("CREATE TABLE \(table) (k BIGINT PRIMARY KEY)")
        defer { try? writer.execute("DROP TABLE \(table)") }
        try writer.beginWriteTransaction()
        try writer.run("INSERT INTO \(table) VALUES (1), (2)")
        #expect(try reader.rows("SELECT count(*) FROM \(table)") == [[.integer(0)]], "not before the commit")
        try writer.commit()
        #expect(try reader.rows("SELECT count(*) FROM \(table)") == [[.integer(2)]])
    }

    @Test func aRolledBackTransactionLeavesNothing() throws {
        let connection = try PostgresTestServer.connect()
        let table = PostgresTestServer.uniqueName()
        try connection.execute("CREATE TEMPORARY TABLE \(table) (k BIGINT PRIMARY KEY)")
        try connection.run("INSERT INTO \(table) VALUES (1)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.writeTransaction {
                try connection.run("INSERT INTO \(table) VALUES (2), (3)")
                try connection.run("DELETE FROM \(table) WHERE k = 1")
                throw Stop()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.rows("SELECT k FROM \(table)") == [[.integer(1)]])
    }

    @Test func aCommitAfterAFailedStatementThrowsAndSavesNothing() throws {
        let connection = try PostgresTestServer.connect()
        let table = PostgresTestServer.uniqueName()
        try connection.execute("CREATE TEMPORARY TABLE \(table) (k BIGINT PRIMARY KEY)")
        try connection.beginWriteTransaction()
        try connection.run("INSERT INTO \(table) VALUES (1)")
        _ = try? connection.run("INSERT INTO \(table) VALUES (1)")
        let error = #expect(throws: PersistenceError.self) { try connection.commit() }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("rolled it back") == true)
        #expect(!connection.isInTransaction)
        #expect(try connection.rows("SELECT count(*) FROM \(table)") == [[.integer(0)]])
    }

    @Test func aReadTransactionSeesOneSnapshot() throws {
        let (reader, writer) = (try PostgresTestServer.connect(), try PostgresTestServer.connect())
        let table = PostgresTestServer.uniqueName()
        try writer.execute("CREATE TABLE \(table) (k BIGINT PRIMARY KEY)")
        defer { try? writer.execute("DROP TABLE \(table)") }
        let counts = try reader.readTransaction {
            let before = try reader.rows("SELECT count(*) FROM \(table)")
            try writer.run("INSERT INTO \(table) VALUES (1)")
            return [before, try reader.rows("SELECT count(*) FROM \(table)")]
        }
        #expect(counts == [[[.integer(0)]], [[.integer(0)]]])
        #expect(try reader.rows("SELECT count(*) FROM \(table)") == [[.integer(1)]])
    }

    // MARK: - Connecting

    @Test func aURLWithASocketDirectoryGivesItsParts() throws {
        let configuration = try PostgresConfiguration(
            url: "postgresql://app:secret@/appdb?host=/run/pg&sslmode=disable")
        #expect(configuration["host"] == "/run/pg")
        #expect(configuration["user"] == "app")
        #expect(configuration["password"] == "secret")
        #expect(configuration.database == "appdb")
        #expect(configuration["sslmode"] == "disable")
        #expect(configuration.description == "postgresql://app@/appdb?host=/run/pg")
    }

    @Test func componentsConnectLikeTheURL() throws {
        let url = try PostgresTestServer.configuration()
        let components = PostgresConfiguration(host: url["host"], user: url["user"], database: url.database)
        let connection = try PostgresConnection(configuration: components)
        #expect(try connection.rows("SELECT current_database()") == [[.text(url.database ?? "")]])
        #expect(try connection.rows("SELECT current_setting('application_name')") == [[.text("ObjectGraph")]])
    }

    @Test(arguments: ["mysql://localhost/db", "postgresql://host/db?no_such_parameter=1", "postgresql://a:b:c@[::1/"])
    func aURLLibpqCannotParseIsATypedError(url: String) throws {
        let error = #expect(throws: PersistenceError.self) { try PostgresConfiguration(url: url) }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test func aMessageNeverShowsThePassword() throws {
        let error = #expect(throws: PersistenceError.self) {
            try PostgresConfiguration(url: "postgresql://app:hunter2@host/db?no_such_parameter=1")
        }
        #expect(error?.message.contains("hunter2") == false)
        #expect(
            try PostgresConfiguration(url: "postgresql://app:hunter2@host/db").description.contains("hunter2") == false)
    }

    @Test func aServerThatIsNotThereIsATypedError() throws {
        let missing = PostgresConfiguration(host: "/tmp/no-server-\(UUID().uuidString.prefix(8))", user: "postgres")
        let error = #expect(throws: PersistenceError.self) { try PostgresConnection(configuration: missing) }
        #expect(error?.code == .ioFailure)
        #expect((error?.underlying as? PostgresError)?.isConnectionLost == true)
        #expect(error?.message.contains("Cannot connect") == true)
    }

    @Test func aDatabaseThatDoesNotExistIsATypedError() throws {
        var configuration = try PostgresTestServer.configuration()
        configuration["dbname"] = "no_such_database"
        let error = #expect(throws: PersistenceError.self) { try PostgresConnection(configuration: configuration) }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("no_such_database") == true)
    }

    @Test func aClosedConnectionThrowsStoreClosed() throws {
        let connection = try PostgresTestServer.connect()
        let statement = try connection.statement("SELECT 1")
        connection.close()
        #expect(!connection.isUsable)
        for call in [{ try connection.execute("SELECT 1") }, { _ = try statement.step() }, { try connection.commit() }]
        {
            let error = #expect(throws: PersistenceError.self) { try call() }
            #expect(error?.code == .storeClosed)
        }
    }
}

extension StoreValue {
    fileprivate var isFloat: Bool { if case .float = self { true } else { false } }
}
