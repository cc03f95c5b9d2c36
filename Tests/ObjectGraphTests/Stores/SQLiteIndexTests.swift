import Foundation
import Testing

@testable import ObjectGraph

/// A SQLite store keeps the model's compound fetch indexes as SQL indexes over their columns in
/// order (what a query translator plans with), and a uniqueness constraint over several
/// attributes as a unique index, which keeps two processes from both storing the same values.
@Suite(.serialized) struct SQLiteIndexTests {
    private func fruitModel() throws -> ManagedObjectModel {
        var fruit = EntityDescription(
            name: "Fruit",
            attributes: [
                AttributeDescription(name: "category", type: .string),
                AttributeDescription(name: "price", type: .double),
                AttributeDescription(name: "name", type: .string, isIndexed: true),
            ])
        fruit.indexes = [
            FetchIndexDescription(name: "byCategoryAndPrice", propertyNames: ["category", "price"]),
            FetchIndexDescription(name: "byName", propertyNames: ["name"]),  // the attribute's own index serves it
            FetchIndexDescription(name: "byPrice", propertyNames: ["price"]),
        ]
        return try ManagedObjectModel(entities: [fruit])
    }

    /// The columns of each index of `table` whose name ends in `suffix`, by index name.
    private func indexes(_ url: URL, table: String, suffix: String) throws -> [String: [String]] {
        let connection = try SQLiteConnection(url: url, readOnly: true, create: false, busyTimeout: .seconds(1))
        defer { connection.close() }
        var result: [String: [String]] = [:]
        for row in try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1",
            [
                .text(table)
            ])
        {
            guard let name = row.first?.text, name.hasSuffix(suffix) else { continue }
            result[name] = try connection.rows("SELECT name FROM pragma_index_info(?1) ORDER BY seqno", [.text(name)])
                .compactMap { $0.first?.text }
        }
        return result
    }

    // MARK: - Fetch indexes

    @Test func compoundFetchIndexesAreSQLIndexesOverTheirColumnsInOrder() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        _ = try PersistentContainer(model: try fruitModel(), storeDescription: .sqliteFile(url))
        #expect(
            try indexes(url, table: "Fruit", suffix: ".fetchIndex") == [
                "Fruit.byCategoryAndPrice.fetchIndex": ["category", "price"], "Fruit.byPrice.fetchIndex": ["price"],
            ])
        #expect(try indexes(url, table: "Fruit", suffix: ".name.index") == ["Fruit.name.index": ["name"]])
    }

    @Test func openingAStoreWrittenWithoutItsFetchIndexesCreatesThem() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        _ = try PersistentContainer(model: try fruitModel(), storeDescription: .sqliteFile(url))
        do {
            let connection = try SQLiteConnection(url: url, readOnly: false, create: false, busyTimeout: .seconds(1))
            defer { connection.close() }
            try connection.execute("DROP INDEX \"Fruit.byCategoryAndPrice.fetchIndex\"")
        }
        #expect(try indexes(url, table: "Fruit", suffix: ".fetchIndex").count == 1)
        _ = try PersistentContainer(model: try fruitModel(), storeDescription: .sqliteFile(url))
        #expect(try indexes(url, table: "Fruit", suffix: ".fetchIndex")["Fruit.byCategoryAndPrice.fetchIndex"] != nil)
    }

    // MARK: - Uniqueness over several attributes

    /// The crash writer's seat model (Sources/CrashWriter/Seats.swift), mirrored.
    private func seatModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Seat",
                attributes: [
                    AttributeDescription(name: "row", type: .string),
                    AttributeDescription(name: "number", type: .integer64),
                ],
                uniquenessConstraints: [["row", "number"]])
        ])
    }

    /// Runs the crash writer's `insert-seat` in another process and returns its exit status.
    private func insertSeat(_ url: URL, _ row: String, _ number: Int64) throws -> Int32 {
        let process = Process()
        process.executableURL = try CrashSafetyTests.writerURL()
        process.arguments = ["insert-seat", url.path, row, String(number)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aStoreThatReadBeforeAnotherProcessInsertedCannotInsertTheSameValues() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("seats.sqlite")
        let model = try seatModel()
        let store = SQLiteStore(url: url)
        let read = try store.load(model: model)
        #expect(try insertSeat(url, "A", 1) == 0)
        #expect(try indexes(url, table: "Seat", suffix: ".unique0") == ["Seat.unique0": ["row", "number"]])

        // Same row and number as the other process's seat: the unique index refuses the save.
        let duplicate = StoreRecord(
            objectID: ObjectID(entityName: "Seat", key: 1000), version: 1,
            values: [
                .string("A"), .int(1),
            ])
        let other = StoreRecord(
            objectID: ObjectID(entityName: "Seat", key: 1001), version: 1,
            values: [
                .string("A"), .int(2),
            ])
        let error = #expect(throws: PersistenceError.self) {
            try store.save(StoreChangeSet(inserted: [other, duplicate], updated: [], deleted: [], snapshot: read))
        }
        #expect(error?.code == .conflict)
        #expect(error?.fileURL == url)
        store.close()
        let seats = try SQLiteStore(url: url).load(model: model)
        #expect(seats.count(ofEntity: "Seat") == 1, "nothing of the refused save was written")
    }

    @Test func twoProcessesCannotBothSaveTheSameSeat() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("seats.sqlite")
        let model = try seatModel()
        let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(url))
        let context = container.newContext()
        let seat = ManagedObject(entity: model.entity(named: "Seat")!, insertInto: context)
        try seat.setValue("B", forKey: "row")
        try seat.setValue(Int64(7), forKey: "number")
        #expect(try insertSeat(url, "B", 7) == 0)
        #expect(throws: PersistenceError.self) { try context.save() }
        #expect(try insertSeat(url, "B", 7) == 1, "a third process cannot store it either")
        let check = try PersistentContainer(model: model, storeDescription: .sqliteFile(url))
        #expect(check.committedSnapshot().count(ofEntity: "Seat") == 1)
    }
}
