import Foundation
import Testing

@testable import ObjectGraph

/// `EntityTable.append`, the loaders' path: keys in order with holes, keys out of order and keys
/// a table already holds (stored by `set`), a table value another one shares, and stores whose
/// indexes and uniqueness constraints must hold right after a load.
@Suite struct EntityTableAppendTests {
    private func row(_ key: Int64, version: Int64 = 1) -> EntityTable.Row {
        EntityTable.Row(version: version, values: [.int(key), .string("row \(key)")])
    }

    /// Appends a row for each of `keys` (version 2, replacing any row) to `start`, and checks the
    /// table against a dictionary of the rows it must hold.
    private func check(_ keys: [Int64], startingWith start: EntityTable = EntityTable()) {
        var table = start
        var expected: [Int64: EntityTable.Row] = [:]
        start.forEach { key, row in expected[key] = row }
        var largest = start.nextKey - 1
        for key in keys {
            table.append(row(key, version: 2), forKey: key)
            expected[key] = row(key, version: 2)
            largest = max(largest, key)
            #expect(table.count == expected.count, "after key \(key)")
        }
        var visited: [Int64] = []
        table.forEach { key, row in
            visited.append(key)
            #expect(row.values == expected[key]?.values, "key \(key)")
            #expect(row.version == expected[key]?.version, "key \(key)")
        }
        #expect(visited == expected.keys.sorted())
        #expect(table.chunks.reduce(0) { $0 + ($1?.live ?? 0) } == expected.count)
        #expect(table.nextKey == largest + 1)
        for key in Set(keys).union([1, 17, 511, 512, 513, 1_024, 1_025, 5_000]) {
            #expect(table.contains(key) == (expected[key] != nil), "key \(key)")
        }
    }

    @Test func keysInOrderWithHolesAcrossChunks() {
        check(Array(1...40) + [45, 100, 511, 512, 513, 600] + Array(1_030...1_100) + [5_000])
    }

    @Test func keysOutOfOrderAndRepeatedKeysAreStoredAsSetStoresThem() {
        check([10, 3, 11, 1, 700, 2, 699, 10, 700, 1_500, 1_024])
    }

    @Test func tableThatAlreadyHasRowsTakesRowsBetweenAndPastThem() {
        var start = EntityTable()
        for key: Int64 in Array(1...20) + [30, 600] { start.set(row(key), forKey: key) }
        start.set(nil, forKey: 600)
        check(Array(21...29) + [5] + Array(31...40) + [601, 602], startingWith: start)
    }

    @Test func appendLeavesATableValueSharingTheChunkUnchanged() {
        var table = EntityTable()
        for key in Int64(1)...10 { table.append(row(key), forKey: key) }
        let copy = table
        table.append(row(11), forKey: 11)
        #expect(table.count == 11 && table[11] != nil)
        #expect(copy.count == 10 && copy[11] == nil && !copy.contains(11))
        #expect(copy.chunks[0]?.live == 10)
        // A removal of a key the table does not hold gives it column caches of its own, while its
        // chunks are still the copy's.
        let second = table
        table.set(nil, forKey: 5_000)
        table.append(row(12), forKey: 12)
        #expect(table.count == 12 && table[12] != nil)
        #expect(second.count == 11 && second[12] == nil && !second.contains(12))
    }

    static let taggedModel = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Tag",
            attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: false, isIndexed: true),
                AttributeDescription(name: "code", type: .integer64, isOptional: false, isIndexed: true),
            ],
            uniquenessConstraints: [["name"]])
    ])

    private func tag(_ context: ManagedContext, _ name: String, code: Int64) throws {
        let tag = ManagedObject(entity: Self.taggedModel.entity(named: "Tag")!, insertInto: context)
        try tag.setValue(name, forKey: "name")
        try tag.setValue(code, forKey: "code")
    }

    @Test(arguments: FileStoreKind.allCases)
    func storeLoadedInBulkFetchesByIndexAndRefusesADuplicateOnTheNextSave(_ kind: FileStoreKind) throws {
        let url = kind.makeURL()
        do {
            let container = try PersistentContainer(model: Self.taggedModel, store: kind.makeStore(at: url))
            let context = container.newContext()
            for code in Int64(1)...1_100 { try tag(context, "tag \(code)", code: code) }
            try context.save()
        }
        let container = try PersistentContainer(model: Self.taggedModel, store: kind.makeStore(at: url))
        let context = container.newContext()
        for (format, code) in [("name == 'tag 700'", Int64(700)), ("code == 1042", 1_042)] {
            var request = FetchRequest<ManagedObject>(entityName: "Tag")
            request.predicate = try FetchPredicate(format: format)
            let found = try context.fetch(request)
            #expect(try found.map { try $0.value(forKey: "code") as? Int64 } == [code], "\(format)")
        }
        try tag(context, "tag 5", code: 2_000)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(error?.entityName == "Tag")
    }
}
