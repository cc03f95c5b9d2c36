import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// A delete of every object of an entity keeps the deleted objects as runs of consecutive keys
/// (no array of IDs in the commit); the IDs are made only when someone reads them, and must be
/// exactly those of a row-by-row listing.
@Suite struct DeleteAllKeyRunsTests {
    /// A table holding `keys` (each at least 1).
    private static func table(_ keys: [Int64]) -> EntityTable {
        var table = EntityTable()
        for key in keys { table.set(EntityTable.Row(version: 1, values: [.int(key)]), forKey: key) }
        return table
    }

    private static func runs(of table: EntityTable) -> [Range<Int64>] {
        var runs: [Range<Int64>] = []
        table.forEachKeyRun { runs.append($0) }
        return runs
    }

    /// Tables across the 512-row chunk boundaries: empty, full chunks, holes, deleted chunks, a
    /// partly filled last chunk, a single far key.
    static let cases: [(name: String, keys: [Int64])] = [
        ("empty", []),
        ("one", [1]),
        ("one far key", [100_000]),
        ("a full chunk", Array(1...512)),
        ("a full chunk and one", Array(1...513)),
        ("a chunk boundary minus one", Array(1...511)),
        ("three full chunks", Array(1...1536)),
        ("holes at chunk edges", Array(1...2000).filter { ![1, 512, 513, 1024, 1025, 2000].contains($0) }),
        ("a deleted middle chunk", Array(1...512) + Array(1025...1100)),
        ("every other key", Array(stride(from: 1, through: 1200, by: 2))),
        ("starts past the first chunk", Array(600...700)),
    ]

    @Test(arguments: cases.indices)
    func keyRunsListExactlyTheKeysOfARowByRowWalk(index: Int) {
        let (name, keys) = Self.cases[index]
        var table = Self.table(keys)
        // Also rows removed after being set, which leave holes and emptied chunks behind.
        if name == "a deleted middle chunk" {
            for key in Int64(513)...1024 { table.set(EntityTable.Row(version: 1, values: []), forKey: key) }
            for key in Int64(513)...1024 { table.set(nil, forKey: key) }
        }
        var walked: [Int64] = []
        table.forEach { key, _ in walked.append(key) }
        let runs = Self.runs(of: table)
        #expect(runs.flatMap { Array($0) } == walked, "\(name)")
        #expect(walked == keys.sorted(), "\(name)")
        #expect(runs.allSatisfy { !$0.isEmpty }, "\(name)")
        // Maximal runs: two runs never touch.
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "\(name)")
    }

    @Test func aFilledTableIsOneRun() {
        #expect(Self.runs(of: Self.table(Array(1...100_000))) == [1..<100_001])
    }

    @Test func emptiedEntitiesMakeTheSameIDsAsTheirRuns() {
        let emptied = EmptiedEntities(
            entityNames: ["A", "Ünïcode 🍎"],
            runs: [
                .init(entityName: "A", keys: 1..<4), .init(entityName: "A", keys: 10..<11),
                .init(entityName: "Ünïcode 🍎", keys: 513..<515),
            ])
        let expected =
            [1, 2, 3, 10].map { ObjectID(entityName: "A", key: $0) }
            + [513, 514].map { ObjectID(entityName: "Ünïcode 🍎", key: $0) }
        #expect(emptied.count == 6)
        #expect(emptied.objectIDs == expected)
        #expect(emptied.objectIDs == expected, "the cached array is the same")
        let other = ObjectID(entityName: "B", key: 1)
        #expect(emptied.objectIDs(adding: [other]) == Set(expected + [other]))
        #expect(emptied.objectIDs(adding: []) == Set(expected))
        #expect(!emptied.objectIDs(adding: []).contains(ObjectID(entityName: "A", key: 4)))
    }

    // MARK: - Through the public API

    @Test func theResultCountsWithoutMakingIDsAndListsThemInKeyOrder() throws {
        let store = RecordingStore()
        let container = try PersistentContainer(model: DeleteAllInOneStepTests.model, store: store)
        let context = container.newContext()
        for index in 0..<1100 { BulkItem(context: context).code = Int64(index) }
        BulkNote(context: context).text = "ü 🍎"
        try context.save()
        try context.execute(BatchDeleteRequest(BulkItem.self, predicate: .init(format: "code IN %@", [0, 511, 512])))
        let result = try context.execute(BatchDeleteRequest(BulkItem.self))
        let expected = (1...1100).filter { ![1, 512, 513].contains($0) }.map {
            ObjectID(entityName: "BulkItem", key: Int64($0))
        }
        #expect(result.count == expected.count)
        #expect(result.deletedObjectIDs == expected)
        #expect(result.count == expected.count, "reading the IDs does not change the count")
        #expect(result.notification.deletedObjectIDs == Set(expected))
        // Results compare by their IDs and notification.
        let again = result
        #expect(again == result && again.hashValue == result.hashValue)
        #expect(Set([result, again]).count == 1)

        // The store's change set lists every deleted object on request, and nothing else.
        let changes = try #require(store.changeSets.last)
        #expect(changes.emptiedEntityNames == ["BulkItem"])
        #expect(changes.deleted == expected)
        #expect(changes.deletedCount == expected.count)
        #expect(!changes.isEmpty)
        #expect(changes.inserted.isEmpty && changes.updated.isEmpty)
        var replaced = changes
        replaced.deleted = [ObjectID(entityName: "BulkNote", key: 1)]
        #expect(replaced.deleted == [ObjectID(entityName: "BulkNote", key: 1)] && replaced.deletedCount == 1)
        replaced.deleted = []
        #expect(replaced.deleted.isEmpty && replaced.deletedCount == 0)
        #expect(!replaced.isEmpty, "the emptied entity is still named")
        replaced.emptiedEntityNames = []
        #expect(replaced.isEmpty)
        #expect(changes.deleted == expected, "a copy's change leaves the original alone")
    }

    @Test func emptyEntitiesDeleteNothingAndCommitNothing() throws {
        let store = RecordingStore()
        let container = try PersistentContainer(model: DeleteAllInOneStepTests.model, store: store)
        let context = container.newContext()
        let result = try context.execute(BatchDeleteRequest(BulkItem.self))
        #expect(result.count == 0 && result.deletedObjectIDs.isEmpty)
        #expect(result.notification.sequenceNumber == 0)
        #expect(try context.deleteAll(BulkItem.self) == 0)
        #expect(try context.deleteAll() == 0)
        #expect(store.changeSets.isEmpty)
    }

    @Test func cascadedObjectsAreListedAfterTheEmptiedOnes() throws {
        let store = RecordingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let basket = Basket(context: context)
        let fruits = (0..<3).map { makeFruit(context, "in \($0)") }
        for fruit in fruits { fruit.basket = basket }
        try context.save()
        let result = try context.execute(BatchDeleteRequest(Basket.self))
        #expect(result.deletedObjectIDs == [basket.objectID])
        let changes = try #require(store.changeSets.last)
        #expect(changes.deleted.first == basket.objectID)
        #expect(Set(changes.deleted.dropFirst()) == Set(fruits.map(\.objectID)))
        #expect(changes.deletedCount == 4)
        #expect(result.notification.deletedObjectIDs == Set([basket.objectID] + fruits.map(\.objectID)))
    }

    @Test func idsReadFromManyTasksAtOnceAreTheSame() async throws {
        let container = try PersistentContainer(model: DeleteAllInOneStepTests.model, storeDescription: .inMemory)
        let context = container.newContext()
        for index in 0..<5000 { BulkItem(context: context).code = Int64(index) }
        try context.save()
        let result = try context.execute(BatchDeleteRequest(BulkItem.self))
        let lists = await withTaskGroup(of: [ObjectID].self) { group in
            for _ in 0..<8 { group.addTask { result.deletedObjectIDs } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let expected = (1...5000).map { ObjectID(entityName: "BulkItem", key: Int64($0)) }
        #expect(lists.count == 8 && lists.allSatisfy { $0 == expected })
    }
}
