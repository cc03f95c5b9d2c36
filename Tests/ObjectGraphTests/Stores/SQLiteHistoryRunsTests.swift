import Foundation
import Testing

@testable import ObjectGraph

/// A delete of every object of an entity is recorded in a SQL store's history as runs of keys
/// (one row per run), and read back as one deletion per object by every reader of the history.
@Suite struct SQLiteHistoryRunsTests {
    let model = try! ManagedObjectModel(entities: [
        EntityDescription(name: "Person", attributes: [AttributeDescription(name: "mail", type: .string)])
    ])

    private func makeURL() -> URL {
        TemporaryDirectory.make().appendingPathComponent("people.sqlite")
    }

    /// Saves `count` people (keys 1…`count`) in one save.
    private func insertPeople(_ count: Int, in context: ManagedContext) throws {
        for index in 0..<count {
            let person = ManagedObject(entity: try #require(model.entity(named: "Person")), insertInto: context)
            try person.setValue("p\(index)", forKey: "mail")
        }
        try context.save()
    }

    /// The history rows of the transaction `token`, read through a connection of its own.
    private func changeRows(of token: PersistentHistoryToken, at url: URL) throws -> [[SQLValue]] {
        let connection = try SQLiteConnection(url: url, readOnly: true, create: false, busyTimeout: .seconds(5))
        defer { connection.close() }
        return try connection.rows(
            "SELECT entity, key, kind, last_key FROM \"objectgraph.changes\" WHERE token = ?1 ORDER BY rowid",
            [.integer(token.value)])
    }

    private func ids(_ keys: some Sequence<Int64>, _ entity: String = "Person") -> [ObjectID] {
        keys.map { ObjectID(entityName: entity, key: $0) }
    }

    // MARK: - Recording

    @Test func aDeleteAllOf10000ObjectsIsOneHistoryRowAndReadsAs10000Deletions() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let context = try PersistentContainer(model: model, store: store).newContext()
        try insertPeople(10_000, in: context)
        let before = try #require(try store.currentHistoryToken())
        #expect(try context.deleteAll(entityName: "Person") == 10_000)
        let token = try #require(try store.currentHistoryToken())
        #expect(try changeRows(of: token, at: url) == [[.text("Person"), .integer(1), .integer(3), .integer(10_000)]])
        let transactions = try store.fetchHistory(after: before)
        #expect(transactions.map(\.token) == [token])
        let changes = try #require(transactions.first).changes
        #expect(changes.count == 10_000)
        #expect(changes.allSatisfy { $0.changeType == .delete && $0.updatedProperties == nil })
        #expect(changes.map(\.objectID) == ids(1...10_000))
    }

    @Test func keysDeletedBeforeADeleteAllSplitItIntoRunsAndAreNotDeletedAgain() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let context = try PersistentContainer(model: model, store: store).newContext()
        try insertPeople(30, in: context)
        var request = FetchRequest<ManagedObject>(entityName: "Person")
        request.predicate = try FetchPredicate(format: "mail IN %@", ["p9", "p19"])
        for person in try context.fetch(request) { context.delete(person) }
        try context.save()
        let before = try #require(try store.currentHistoryToken())
        #expect(try context.deleteAll(entityName: "Person") == 28)
        let token = try #require(try store.currentHistoryToken())
        #expect(
            try changeRows(of: token, at: url).map { [$0[1], $0[3]] } == [
                [.integer(1), .integer(9)], [.integer(11), .integer(19)], [.integer(21), .integer(30)],
            ])
        let changes = try store.fetchHistory(after: before).flatMap(\.changes)
        #expect(changes.map(\.objectID) == ids(Array(1...9) + Array(11...19) + Array(21...30)))
    }

    @Test func theRunsOfADeleteAllComeBeforeTheUpdatesItsDeleteRulesMadeInTheSameTransaction() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let context = try PersistentContainer(model: TestModels.fruits, store: store).newContext()
        let apple = makeFruit(context, "apple")
        let tags = (0..<3).map { index in
            let tag = Tag(context: context)
            tag.title = "t\(index)"
            return tag
        }
        apple.tags = Set(tags)
        try context.save()
        let before = try #require(try store.currentHistoryToken())
        #expect(try context.deleteAll(Tag.self) == 3)
        let changes = try #require(try store.fetchHistory(after: before).first).changes
        #expect(changes.map(\.changeType) == [.delete, .delete, .delete, .update])
        #expect(changes.prefix(3).map(\.objectID) == tags.map(\.objectID).sorted { $0.key < $1.key })
        #expect(changes.last?.objectID == apple.objectID && changes.last?.updatedProperties == ["tags"])
    }

    // MARK: - Other readers

    @Test func anotherContainerMergesADeleteAllRecordedAsRuns() async throws {
        let url = makeURL()
        let writer = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
        try insertPeople(10_000, in: writer)
        let readerStore = SQLiteStore(url: url)
        let readerContainer = try PersistentContainer(model: model, store: readerStore)
        var saves = readerContainer.saves.makeAsyncIterator()
        let reader = readerContainer.newContext()
        reader.automaticallyMergesChanges = true
        let people = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        #expect(people.count == 10_000)

        #expect(try writer.deleteAll(entityName: "Person") == 10_000)
        #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 0)
        let allDeleted = people.allSatisfy { $0.isDeleted }
        #expect(allDeleted, "the merged deletions reach the registered objects")
        let merged = try #require(await saves.next())
        #expect(merged.deletedObjectIDs == Set(ids(1...10_000)))
        let last = try #require(try readerStore.fetchHistory(after: nil).last)
        #expect(last.changes.map(\.objectID) == ids(1...10_000))
    }

    // MARK: - Pruning

    @Test func deletingHistoryBeforeATokenDeletesEarlierTransactionsAndTheirRunsOnly() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let context = try PersistentContainer(model: model, store: store).newContext()
        try insertPeople(100, in: context)
        #expect(try context.deleteAll(entityName: "Person") == 100)
        let emptied = try #require(try store.currentHistoryToken())
        try insertPeople(1, in: context)
        let last = try #require(try store.currentHistoryToken())

        #expect(try store.deleteHistory(before: emptied) == 1)
        let kept = try store.fetchHistory(after: nil)
        #expect(kept.map(\.token) == [emptied, last])
        #expect(kept[0].changes.map(\.objectID) == ids(1...100))
        #expect(try store.deleteHistory(before: last) == 1)
        #expect(try changeRows(of: emptied, at: url).isEmpty, "the run went with its transaction")
        #expect(try store.fetchHistory(after: nil).map(\.token) == [last])
        #expect(try store.deleteHistory(before: last) == 0)
    }

    @Test func deletingAllHistoryKeepsTheLastTransactionSoTokensKeepCounting() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let container = try PersistentContainer(model: model, store: store)
        let context = container.newContext()
        try insertPeople(3, in: context)
        try insertPeople(3, in: context)
        let last = try #require(try store.currentHistoryToken())
        #expect(try store.deleteHistory(before: PersistentHistoryToken(value: .max)) == 1)
        #expect(try store.currentHistoryToken() == last)
        #expect(try context.deleteAll(entityName: "Person") == 6)
        let next = try #require(try store.fetchHistory(after: last).first)
        #expect(next.token > last)
        #expect(next.changes.count == 6)
    }

    @Test func aContainerFollowingTheHistoryMergesSavesAfterWhatWasDeleted() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let writer = try PersistentContainer(model: model, store: store).newContext()
        try insertPeople(10, in: writer)
        let reader = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
        reader.automaticallyMergesChanges = true
        let people = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        #expect(try writer.deleteAll(entityName: "Person") == 10)
        #expect(try store.deleteHistory(before: try #require(try store.currentHistoryToken())) == 1)
        #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 0)
        let allDeleted = people.allSatisfy { $0.isDeleted }
        #expect(allDeleted)
    }

    @Test func aReadOnlyStoreRefusesToDeleteHistory() throws {
        let url = makeURL()
        do {
            let context = try PersistentContainer(model: model, store: SQLiteStore(url: url)).newContext()
            try insertPeople(1, in: context)
        }
        let store = SQLiteStore(url: url, isReadOnly: true)
        let container = try PersistentContainer(model: model, store: store)
        let token = try #require(try store.currentHistoryToken())
        let error = try #require(throws: PersistenceError.self) { try store.deleteHistory(before: token) }
        #expect(error.code == .readOnlyStore && error.fileURL == url)
        #expect(try store.fetchHistory(after: nil).count == 1)
        withExtendedLifetime(container) {}
    }

    // MARK: - Format version 1

    @Test func aStoreWrittenBeforeRunsOpensReadsItsHistoryAndIsUpgradedWhenOpenedForWriting() throws {
        let url = makeURL()
        let written: [PersistentHistoryTransaction]
        do {
            let store = SQLiteStore(url: url)
            let context = try PersistentContainer(model: model, store: store).newContext()
            try insertPeople(5, in: context)
            let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
            try people[0].setValue("changed", forKey: "mail")
            context.delete(people[1])
            try context.save()
            written = try store.fetchHistory(after: nil)
        }
        try rewriteAsFormatVersion1(url)

        // Read-only, the file stays at version 1 and its history reads as it was written.
        do {
            let store = SQLiteStore(url: url, isReadOnly: true)
            let container = try PersistentContainer(model: model, store: store)
            #expect(try store.fetchHistory(after: nil) == written)
            withExtendedLifetime(container) {}
        }
        #expect(try formatVersion(url) == "1")
        #expect(try StoreFileInspector.inspect(url).formatVersion == 1)

        // Opened for writing, it is upgraded, and a delete-all is recorded as a run.
        let store = SQLiteStore(url: url)
        let context = try PersistentContainer(model: model, store: store).newContext()
        #expect(try formatVersion(url) == "2")
        #expect(try store.fetchHistory(after: nil) == written)
        #expect(try context.deleteAll(entityName: "Person") == 4)
        let token = try #require(try store.currentHistoryToken())
        #expect(try changeRows(of: token, at: url).count == 2, "runs 1 and 3…5")
        #expect(try store.fetchHistory(after: nil).last?.changes.map(\.objectID) == ids([1, 3, 4, 5]))
    }

    @Test func aRunOutsideTheValidKeysIsLeftOutOfTheHistory() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url)
        let context = try PersistentContainer(model: model, store: store).newContext()
        try insertPeople(3, in: context)
        #expect(try context.deleteAll(entityName: "Person") == 3)
        let token = try #require(try store.currentHistoryToken())
        let connection = try SQLiteConnection(url: url, readOnly: false, create: false, busyTimeout: .seconds(5))
        for (first, last) in [(5, 4), (0, 2), (1, 1 << 40)] as [(Int64, Int64)] {
            try connection.run(
                "INSERT INTO \"objectgraph.changes\" (token, entity, key, kind, last_key) VALUES (?1, 'Person', ?2, 3, ?3)",
                [.integer(token.value), .integer(first), .integer(last)])
        }
        try connection.run(
            "INSERT INTO \"objectgraph.changes\" (token, entity, key, kind) VALUES (?1, 'Person', 7, 3)",
            [.integer(token.value)])
        connection.close()
        let changes = try #require(try store.fetchHistory(after: nil).last).changes
        #expect(changes.map(\.objectID) == ids(1...3))
    }

    /// Gives the history's change table the layout of format version 1 (no `last_key`) and
    /// records version 1, as a store written before runs were.
    private func rewriteAsFormatVersion1(_ url: URL) throws {
        let connection = try SQLiteConnection(url: url, readOnly: false, create: false, busyTimeout: .seconds(5))
        defer { connection.close() }
        try connection.writeTransaction {
            try connection.execute(
                """
                DROP INDEX "objectgraph.changes.token.index";
                ALTER TABLE "objectgraph.changes" RENAME TO "changes.new";
                CREATE TABLE "objectgraph.changes" (token INTEGER NOT NULL, entity TEXT NOT NULL, \
                key INTEGER NOT NULL, kind INTEGER NOT NULL, properties TEXT);
                CREATE INDEX "objectgraph.changes.token.index" ON "objectgraph.changes" (token);
                INSERT INTO "objectgraph.changes" SELECT token, entity, key, kind, properties FROM "changes.new"
                    ORDER BY rowid;
                DROP TABLE "changes.new";
                UPDATE "objectgraph.metadata" SET value = '1' WHERE name = 'format'
                """)
        }
    }

    private func formatVersion(_ url: URL) throws -> String? {
        let connection = try SQLiteConnection(url: url, readOnly: true, create: false, busyTimeout: .seconds(5))
        defer { connection.close() }
        return try connection.rows("SELECT value FROM \"objectgraph.metadata\" WHERE name = 'format'").first?.first?
            .text
    }
}
