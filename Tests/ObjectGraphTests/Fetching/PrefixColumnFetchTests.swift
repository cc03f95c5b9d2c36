import Foundation
import Testing

@testable import ObjectGraph

/// A store of items with names full of tricky prefixes, and the fetches to check on it.
struct PrefixColumnStore {
    static func model(priceIndexed: Bool) -> ManagedObjectModel {
        let attributes = [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "price", type: .integer64, isOptional: true, isIndexed: priceIndexed),
        ]
        return try! ManagedObjectModel(entities: [EntityDescription(name: "Item", attributes: attributes)])
    }

    static let names: [String?] =
        IndexedPair.names + [
            "abcdefgh", "abcdefghij", "abcdefg\u{301}", "a\0", "\0", "W1", "w1\r", "ab\u{301}", "a", "",
        ]

    static let formats = [
        "name BEGINSWITH 'a'", "name BEGINSWITH 'ab'", "name BEGINSWITH 'w1'", "name BEGINSWITH ''",
        "name BEGINSWITH 'abcdefgh'", "name BEGINSWITH 'abcdefghij'", "name BEGINSWITH 'e'", "name BEGINSWITH 'K'",
        "name BEGINSWITH %@", "price BETWEEN {100, 200} AND name BEGINSWITH 'w1'",
        "name BEGINSWITH 'a' AND price < 500", "name BEGINSWITH 'w' AND name BEGINSWITH 'w2'",
        "NOT name BEGINSWITH 'w'", "name BEGINSWITH 'a' OR name BEGINSWITH 'b'",
        "name == 'w12'", "name == 'w1'", "name == ''", "name == 'abcdefgh'", "name == 'abcdefghij'",
        "name == %@", "name == 'Kelvin'", "name == 'a' AND price < 500", "name != 'w12'", "name ==[c] 'W12'",
        "name BEGINSWITH[c] 'AB'", "name BEGINSWITH[cd] 'e'", "name BEGINSWITH[d] 'e'", "name ==[c] 'KELVIN'",
        "name ==[cd] 'cafe'", "name BEGINSWITH[c] 'w1' AND price < 500", "name ==[d] 'eclair'",
    ]

    let container: PersistentContainer
    let context: ManagedContext
    var random = IndexedPair.Generator(seed: 7)

    init(count: Int, priceIndexed: Bool) throws {
        container = try PersistentContainer(model: Self.model(priceIndexed: priceIndexed), storeDescription: .inMemory)
        context = container.newContext()
        for _ in 0..<count { try insert() }
        try context.save()
    }

    mutating func name() -> String? {
        random.next(4) == 0 ? Self.names[random.next(Self.names.count)] : "w\(random.next(400))"
    }

    mutating func insert() throws {
        let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
        try object.setValue(name(), forKey: "name")
        try object.setValue(Int64(random.next(1_000)), forKey: "price")
    }

    /// The keys of the committed rows a predicate matches, each row tested in full.
    func committedKeys(_ predicate: FetchPredicate) throws -> [Int64] {
        let snapshot = container.committedSnapshot()
        let info = snapshot.model.infos[0]
        let program = RowProgram(try CompiledPredicate(predicate, entity: info, model: snapshot.model))
        var keys: [Int64] = []
        snapshot.tables[0].forEach { key, row in
            if row.values.withUnsafeBufferPointer(program.matches) { keys.append(key) }
        }
        return keys
    }

    func fetchedKeys(_ predicate: FetchPredicate, in context: ManagedContext? = nil) throws -> [Int64] {
        let request = FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)
        return try (context ?? self.context).fetch(request).map(\.objectID.key)
    }

    func expectAgreement(sourceLocation: SourceLocation = #_sourceLocation) throws {
        for format in Self.formats {
            let predicate =
                try format.contains("%@") ? FetchPredicate(format: format, "ab\u{301}") : FetchPredicate(format: format)
            let fetched = try fetchedKeys(predicate)
            #expect(fetched == (try committedKeys(predicate)), "\(format)", sourceLocation: sourceLocation)
            // A new context (no registered objects) agrees too.
            #expect(try fetchedKeys(predicate, in: container.newContext()) == fetched, sourceLocation: sourceLocation)
        }
    }

    var hasNameColumn: Bool {
        let table = container.committedSnapshot().tables[0]
        return table.prefixColumns.column(slot: 0, of: table, build: false) != nil
    }

}

/// Fetches that test ASCII prefixes on enough rows build a ``StringPrefixColumn`` and skip the
/// rows it excludes: they must return exactly what testing every row returns, before and after
/// saves and with pending changes.
@Suite struct PrefixColumnFetchTests {
    @Test(arguments: [false, true])
    func fetchesAgreeWithTestingEveryRow(priceIndexed: Bool) throws {
        var store = try PrefixColumnStore(count: 3_000, priceIndexed: priceIndexed)
        #expect(!store.hasNameColumn)
        try store.expectAgreement()
        #expect(store.hasNameColumn)

        // Saved changes after the column exists: renames into and out of prefixes, nil names,
        // deletes, and inserts that open new chunks.
        let objects = try store.context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        for object in objects where object.objectID.key % 5 == 0 { try object.setValue(store.name(), forKey: "name") }
        for object in objects where object.objectID.key % 13 == 0 { store.context.delete(object) }
        for _ in 0..<1_200 { try store.insert() }
        try store.context.save()
        #expect(store.hasNameColumn)
        try store.expectAgreement()
    }

    @Test func pendingChangesAreNotExcludedByCommittedValues() throws {
        let store = try PrefixColumnStore(count: 2_500, priceIndexed: true)
        let predicate = try FetchPredicate(format: "name BEGINSWITH 'qq'")
        #expect(try store.fetchedKeys(predicate).isEmpty)
        #expect(store.hasNameColumn)
        let objects = try store.context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        try objects[10].setValue("qq renamed", forKey: "name")
        try objects[2_000].setValue("qq too", forKey: "name")
        #expect(try store.fetchedKeys(predicate) == [objects[10].objectID.key, objects[2_000].objectID.key])

        try objects[10].setValue("no longer", forKey: "name")
        try store.context.save()
        #expect(try store.fetchedKeys(predicate) == [objects[2_000].objectID.key])
        #expect(try store.fetchedKeys(predicate, in: store.container.newContext()) == [objects[2_000].objectID.key])

        // Unsaved inserts alone leave the column in use; they are tested as they are.
        let inserted = ManagedObject(entity: store.context.model.entity(named: "Item")!, insertInto: store.context)
        try inserted.setValue("qq inserted", forKey: "name")
        #expect(try store.fetchedKeys(predicate) == [objects[2_000].objectID.key, inserted.objectID.key])
        #expect(try store.fetchedKeys(FetchPredicate(format: "name == 'qq inserted'")) == [inserted.objectID.key])
    }

    @Test func smallScansBuildNoColumn() throws {
        let store = try PrefixColumnStore(count: StringPrefixColumn.rowsWorthBuilding - 1, priceIndexed: false)
        _ = try store.fetchedKeys(FetchPredicate(format: "name BEGINSWITH 'a'"))
        #expect(!store.hasNameColumn)
    }

    /// A fetch with a limit may stop after a few rows: it must not read every row to build a
    /// column, but uses one that exists.
    @Test func scansThatMayStopEarlyBuildNoColumnButUseOne() throws {
        let store = try PrefixColumnStore(count: 3_000, priceIndexed: false)
        var request = FetchRequest<ManagedObject>(
            entityName: "Item", predicate: try FetchPredicate(format: "name BEGINSWITH 'w1'"))
        request.fetchLimit = 5
        let limited = try store.context.fetch(request).map(\.objectID.key)
        #expect(!store.hasNameColumn)
        #expect(limited == Array(try store.committedKeys(request.predicate!).prefix(5)))
        request.sortDescriptors = [SortDescriptor(key: "price")]
        _ = try store.context.fetch(request)
        #expect(store.hasNameColumn)
        request.sortDescriptors = []
        #expect(try store.context.fetch(request).map(\.objectID.key) == limited)
    }

    /// Readers in three tasks fetch while a writer renames one "a" object to "b" and one "b"
    /// object to "a" in each save, and the first fetches race to build the column: every fetch
    /// sees exactly the 1,500 "a" names of one committed state.
    @Test func concurrentFetchesAndSavesAgreeOnEveryState() async throws {
        let container = try PersistentContainer(
            model: PrefixColumnStore.model(priceIndexed: false), storeDescription: .inMemory)
        let seed = container.newContext()
        for number in 0..<3_000 {
            let object = ManagedObject(entity: seed.model.entity(named: "Item")!, insertInto: seed)
            try object.setValue("\(number % 2 == 0 ? "a" : "b")\(number)", forKey: "name")
            try object.setValue(Int64(number), forKey: "price")
        }
        try seed.save()
        let predicate = try FetchPredicate(format: "name BEGINSWITH 'a'")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await container.performBackgroundTask { context in
                    let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                    var (named, other) = (
                        objects.filter { $0.objectID.key % 2 == 1 }, objects.filter { $0.objectID.key % 2 == 0 }
                    )
                    for round in 0..<150 {
                        let (toB, toA) = (named.removeFirst(), other.removeFirst())
                        try toB.setValue("b renamed \(round)", forKey: "name")
                        try toA.setValue("a renamed \(round)", forKey: "name")
                        try context.save()
                        (named, other) = (named + [toA], other + [toB])
                    }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        for _ in 0..<40 {
                            let found = try context.fetch(
                                FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate))
                            #expect(found.count == 1_500)
                            let names = try found.map { try $0.value(forKey: "name") as? String }
                            #expect(names.allSatisfy { $0?.hasPrefix("a") == true })
                            #expect(
                                try context.count(
                                    for: FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)) == 1_500
                            )
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
