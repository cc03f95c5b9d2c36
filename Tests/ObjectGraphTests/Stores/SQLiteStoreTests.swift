import Foundation
import Testing

@testable import ObjectGraph

@Suite struct SQLiteStoreTests {
    private func makeURL(_ name: String = "store.sqlite") -> URL {
        TemporaryDirectory.make().appendingPathComponent(name)
    }

    // MARK: - Choosing the store

    @Test func sqliteExtensionsChooseTheSQLiteStore() throws {
        for name in ["a.sqlite", "b.SQLITE3", "c.db"] {
            let description = try StoreDescription(url: URL(fileURLWithPath: "/tmp/\(name)"))
            #expect(description.kind == .sqliteFile)
            #expect(description.makeStore() is SQLiteStore)
        }
        #expect(StoreDescription.sqliteFile(URL(fileURLWithPath: "/tmp/x.data")).kind == .sqliteFile)
        #expect(try StoreDescription(url: URL(fileURLWithPath: "/tmp/x.ogdb")).kind == .binaryFile)
    }

    // MARK: - The file

    @Test func theFileIsASQLiteDatabaseWithATablePerEntityAndTheModelsIndexes() throws {
        let url = makeURL()
        do {
            let container = try PersistentContainer(model: IntegrityModels.model, storeDescription: .sqliteFile(url))
            let context = container.newContext()
            makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
            try context.save()
        }
        let connection = try SQLiteConnection(url: url, readOnly: true, create: false, busyTimeout: .seconds(1))
        defer { connection.close() }
        let names = Set(try connection.rows("SELECT name FROM sqlite_master").compactMap { $0.first?.text })
        for table in [
            "Company", "Department", "Team", "Twin", "Person", "Badge", "Club", "Department.teams",
            "Person.clubs", "Club.members", "objectgraph.metadata", "objectgraph.keys", "objectgraph.transactions",
            "objectgraph.changes",
        ] {
            #expect(names.contains(table), "no table \(table)")
        }
        #expect(names.contains("Person.unique0") && names.contains("Person.unique1"))
        #expect(!names.contains("Company.departments"), "a to-many with a to-one inverse is its inverse's column")
        let rows = try connection.rows("SELECT _key, _version, firstName, lastName, email FROM Person")
        #expect(rows == [[.integer(1), .integer(1), .text("Ada"), .text("Lovelace"), .text("ada@example.com")]])
        #expect(try connection.rows("PRAGMA journal_mode") == [[.text("wal")]])
    }

    @Test func aFileWrittenWithAnotherModelIsAModelMismatchAndItsSchemaIsReadable() throws {
        let url = makeURL()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
            makeFruit(container.newContext(), "apple")
        }
        var description = StoreDescription.sqliteFile(url)
        description.migration = .disabled  // (automatic migrates it: Docs/Migration.md)
        let error = try #require(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: IntegrityModels.model, storeDescription: description)
        }
        #expect(error.code == .modelMismatch)
        let stored = try SQLiteStore.storedSchema(at: url)
        #expect(stored.map(\.name).sorted() == TestModels.fruits.entities.map(\.name).sorted())
        #expect(try ManagedObjectModel(entities: stored).schemaDifferences(from: TestModels.fruits).isEmpty)
    }

    @Test func aFileThatIsNotADatabaseIsACorruptStoreNamingTheFile() throws {
        let url = makeURL()
        try Data(repeating: 0x41, count: 4096).write(to: url)
        let error = try #require(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        }
        #expect(error.code == .corruptStore)
        #expect(error.fileURL == url)
        #expect(error.message.contains(url.path))
    }

    @Test func aSQLiteDatabaseOfAnotherAppIsAnUnsupportedFormat() throws {
        let url = makeURL("other.db")
        let connection = try SQLiteConnection(url: url, readOnly: false, create: true, busyTimeout: .seconds(1))
        try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        connection.close()
        let error = try #require(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, storeDescription: try StoreDescription(url: url))
        }
        #expect(error.code == .unsupportedFormat)
        #expect(error.fileURL == url)
    }

    @Test func aMissingDirectoryIsAnIOFailureNamingIt() throws {
        let url = makeURL().deletingLastPathComponent().appendingPathComponent("missing/store.sqlite")
        let error = try #require(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        }
        #expect(error.code == .ioFailure)
        #expect(error.fileURL == url.deletingLastPathComponent())
    }

    // MARK: - Opening

    @Test func openingTheSameStoreTwiceIsLockedUntilItCloses() throws {
        let store = SQLiteStore(url: makeURL())
        var container: PersistentContainer? = try PersistentContainer(model: TestModels.fruits, store: store)
        let error = try #require(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, store: store)
        }
        #expect(error.code == .storeLocked)
        #expect(container != nil)
        container = nil
        _ = try PersistentContainer(model: TestModels.fruits, store: store)
    }

    @Test func aReadOnlyStoreLoadsAndRefusesToSave() throws {
        let url = makeURL()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
            let context = container.newContext()
            makeFruit(context, "apple")
            try context.save()
        }
        var description = StoreDescription.sqliteFile(url)
        description.isReadOnly = true
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: description)
        let context = container.newContext()
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["apple"])
        makeFruit(context, "pear")
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .readOnlyStore)
        let missing = StoreDescription.sqliteFile(makeURL())
        var readOnlyMissing = missing
        readOnlyMissing.isReadOnly = true
        let missingError = try #require(throws: PersistenceError.self) {
            _ = try PersistentContainer(model: TestModels.fruits, storeDescription: readOnlyMissing)
        }
        #expect(missingError.code == .ioFailure)
        #expect(!FileManager.default.fileExists(atPath: missing.url!.path))
    }

    @Test func aSaveWhileAnotherConnectionHoldsTheWriteLockIsStoreLockedAndChangesNothing() throws {
        let url = makeURL()
        let store = SQLiteStore(url: url, busyTimeout: .milliseconds(50))
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        makeFruit(context, "apple")
        try context.save()
        let other = try SQLiteConnection(url: url, readOnly: false, create: false, busyTimeout: .zero)
        defer { other.close() }
        try other.beginWriteTransaction()
        let pear = makeFruit(context, "pear")
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .storeLocked)
        #expect(error.fileURL == url)
        #expect(pear.isInserted)
        other.rollback()
        try context.save()
        #expect(try container.newContext().fetch(Fruit.fetchRequest()).map(\.name) == ["apple", "pear"])
    }

    @Test func synchronousNormalIsAnOption() throws {
        let url = makeURL()
        let container = try PersistentContainer(
            model: TestModels.fruits, store: SQLiteStore(url: url, synchronous: .normal))
        let context = container.newContext()
        makeFruit(context, "apple")
        try context.save()
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 1)
    }

    // MARK: - Relationships and delete rules

    @Test func everyKindOfRelationshipRoundTripsInOrder() throws {
        let url = makeURL()
        var teamNames: [String] = []
        do {
            let container = try makeIntegrityContainer(SQLiteStore(url: url))
            let context = container.newContext()
            let company = Company(context: context)
            company.name = "Acme"
            let department = Department(context: context)
            department.company = company
            let teams = (0..<5).map { index in
                let team = Team(context: context)
                team.name = "team \(4 - index)"
                return team
            }
            department.teams = teams
            teamNames = teams.map(\.name)
            let twin = Twin(context: context)
            twin.team = teams[0]
            let ada = makePerson(context, "Ada", "Lovelace")
            let bob = makePerson(context, "Bob", "Builder")
            let chess = Club(context: context)
            chess.members = [ada, bob]
            let badge = Badge(context: context)
            badge.holder = ada
            try context.save()
        }
        let container = try makeIntegrityContainer(SQLiteStore(url: url))
        let context = container.newContext()
        let department = try #require(try context.fetch(Department.fetchRequest()).first)
        #expect(department.company?.name == "Acme")
        #expect(department.teams.map(\.name) == teamNames)
        #expect(department.teams.first?.twin != nil)
        let ada = try #require(try context.fetch(Person.fetchRequest()).first { $0.firstName == "Ada" })
        #expect(ada.badge?.holder === ada)
        #expect(ada.clubs.first?.members.count == 2)
        let company = try #require(department.company)
        #expect(company.departments.contains(department))
        context.delete(company)
        try context.save()
        let reopened = try makeIntegrityContainer(SQLiteStore(url: url))
        let after = reopened.newContext()
        #expect(try after.count(for: Department.fetchRequest()) == 0, "cascade")
        #expect(try after.count(for: Team.fetchRequest()) == 0, "cascade through an ordered to-many")
        #expect(try after.count(for: Twin.fetchRequest()) == 0, "cascade through a to-one")
        #expect(try after.count(for: Person.fetchRequest()) == 2)
    }

    // MARK: - Several containers on one file

    @Test func aSecondContainerOnTheFileSeesSavesOnItsNextFetchAndMergesThem() throws {
        let url = makeURL()
        let first = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        let second = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        let writer = first.newContext()
        let apple = makeFruit(writer, "apple", price: 1)
        try writer.save()
        let reader = second.newContext()
        reader.automaticallyMergesChanges = true
        let read = try #require(try reader.fetch(Fruit.fetchRequest()).first)
        #expect(read.name == "apple")
        apple.price = 2
        makeFruit(writer, "pear")
        try writer.save()
        #expect(try reader.fetch(Fruit.fetchRequest()).map(\.name) == ["apple", "pear"])
        #expect(read.price == 2, "merged automatically")
        // Both containers insert: their keys never clash.
        let fig = makeFruit(reader, "fig")
        let kiwi = makeFruit(writer, "kiwi")
        try reader.save()
        try writer.save()
        #expect(fig.objectID != kiwi.objectID)
        writer.delete(apple)
        try writer.save()
        #expect(try reader.fetch(Fruit.fetchRequest()).map(\.name).sorted() == ["fig", "kiwi", "pear"])
        #expect(read.isDeleted, "the merged delete reaches the registered object")
    }

    @Test func aStaleEditFromAnotherContainerIsAConflictAndChangesNothing() throws {
        let url = makeURL()
        let first = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        let writer = first.newContext()
        let apple = makeFruit(writer, "apple", price: 1)
        try writer.save()
        let second = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        let other = second.newContext()
        let stale = try #require(try other.fetch(Fruit.fetchRequest()).first)
        apple.price = 2
        try writer.save()
        stale.price = 3
        let error = try #require(throws: PersistenceError.self) { try other.save() }
        #expect(error.code == .conflict)
        #expect(error.detailedErrors.first?.objectID == apple.objectID || error.objectID == apple.objectID)
        let check = try PersistentContainer(model: TestModels.fruits, storeDescription: .sqliteFile(url))
        #expect(try check.newContext().fetch(Fruit.fetchRequest()).map(\.price) == [2])
    }

    // MARK: - Persistent history

    @Test func historyRecordsEachSaveAndFetchesOnlyTransactionsAfterAToken() throws {
        let store = SQLiteStore(url: makeURL())
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        #expect(try store.currentHistoryToken() == nil)
        let apple = makeFruit(context, "apple")
        try context.save()
        let token = try #require(try store.currentHistoryToken())
        apple.price = 5
        let pear = makeFruit(context, "pear")
        try context.save()
        context.delete(pear)
        try context.save()
        let all = try store.fetchHistory(after: nil)
        #expect(all.count == 3)
        #expect(all[0].changes == [PersistentHistoryChange(objectID: apple.objectID, changeType: .insert)])
        let later = try store.fetchHistory(after: token)
        #expect(later.map(\.token) == Array(all.dropFirst()).map(\.token))
        #expect(Set(later[0].changes.map(\.changeType)) == [.insert, .update])
        #expect(later[1].changes == [PersistentHistoryChange(objectID: pear.objectID, changeType: .delete)])
        #expect(later.allSatisfy { $0.token > token })
    }

    @Test func historyNamesThePropertiesEachUpdateChanged() throws {
        let store = SQLiteStore(url: makeURL())
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let apple = makeFruit(context, "apple")
        let basket = Basket(context: context)
        try context.save()
        let token = try #require(try store.currentHistoryToken())
        apple.price = 5
        apple.basket = basket
        try context.save()
        basket.label = "kitchen"
        try context.save()
        let later = try store.fetchHistory(after: token)
        let changes = later.flatMap(\.changes)
        #expect(changes.first { $0.objectID == apple.objectID }?.updatedProperties == ["price", "basket"])
        #expect(
            later[0].changes.first { $0.objectID == basket.objectID }?.updatedProperties == ["fruits"],
            "the inverse side changed too")
        #expect(later[1].changes.map(\.updatedProperties) == [["label"]])
        let inserts = try store.fetchHistory(after: nil)[0].changes
        #expect(inserts.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil })
    }

    // MARK: - The predicate table on a SQLite file

    @Test(arguments: PredicateCase.all)
    func selectsTheExpectedObjectsReadBackFromASQLiteFile(_ row: PredicateCase) throws {
        let url = makeURL()
        _ = try PredicateFixture(storeDescription: .sqliteFile(url))
        let fixture = try PredicateFixture(reopening: .sqliteFile(url))
        let predicate = try row.predicate(in: fixture)
        #expect(try fixture.names(matching: predicate) == row.expected)
        #expect(try fixture.context.count(for: FetchRequest<Product>(predicate: predicate)) == row.expected.count)
    }
}
