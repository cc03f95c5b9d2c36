import Foundation
import Testing

@testable import ObjectGraph

/// A case-insensitive sort over enough committed rows reads their folded strings from the
/// table's `[c]` signature column instead of folding them again: it must order exactly as
/// folding every value does, with unsaved changes (whose values the column does not hold),
/// after saves that change the column, and with the column shared by a `[c]` predicate.
@Suite struct FoldedSortColumnTests {
    static let count = 3_000

    struct Store {
        let container: PersistentContainer
        let context: ManagedContext
        var generator = SeededGenerator(seed: 7)

        init() throws {
            container = try PersistentContainer(
                model: PrefixColumnStore.model(priceIndexed: false), storeDescription: .inMemory)
            context = container.newContext()
            for _ in 0..<FoldedSortColumnTests.count { try insert() }
            try context.save()
        }

        mutating func name() -> String? {
            ColumnSortStringTests.randomKeys(
                count: 1, seed: UInt64.random(in: 0...UInt64.max, using: &generator),
                pieces: ColumnSortStringTests.pieces)[0]
        }

        mutating func insert() throws {
            let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
            try object.setValue(name(), forKey: "name")
        }

        var foldedColumnExists: Bool {
            let table = container.committedSnapshot().tables[0]
            return table.signatureColumns.column(
                slot: 0, folding: StringSignature.folding(.caseInsensitive), of: table, build: false,
                signer: StringSignature.signer(folding: [])) != nil
        }

        /// The objects of `context` sorted by their folded names (nil first), ties by key.
        static func expected(_ objects: [ManagedObject], ascending: Bool) throws -> [Int64] {
            let keyed = try objects.map { object in
                (
                    (try object.value(forKey: "name") as? String).map { PredicateFolding.fold($0, .caseInsensitive) },
                    object.objectID.key
                )
            }
            let nils = keyed.filter { $0.0 == nil }.map(\.1).sorted()
            let values = keyed.compactMap { name, key in name.map { ($0, key) } }.sorted { lhs, rhs in
                if lhs.0 == rhs.0 { return lhs.1 < rhs.1 }
                return ascending ? lhs.0 < rhs.0 : rhs.0 < lhs.0
            }.map(\.1)
            return ascending ? nils + values : values + nils
        }

        func expectSortedAsFolding(in context: ManagedContext, sourceLocation: SourceLocation = #_sourceLocation)
            throws
        {
            for ascending in [true, false] {
                var request = FetchRequest<ManagedObject>(entityName: "Item")
                request.sortDescriptors = [
                    FetchSortDescriptor(key: "name", ascending: ascending, comparison: .caseInsensitive)
                ]
                let sorted = try context.fetch(request)
                let all = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                let expected = try Self.expected(all, ascending: ascending)
                #expect(
                    sorted.map(\.objectID.key) == expected,
                    "ascending: \(ascending)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func sortsAsFoldingEveryValueBeforeAndAfterTheColumnExists() throws {
        let store = try Store()
        #expect(!store.foldedColumnExists)
        try store.expectSortedAsFolding(in: store.container.newContext())
        #expect(store.foldedColumnExists)
        // The column built, read by a second context.
        try store.expectSortedAsFolding(in: store.container.newContext())
    }

    @Test func unsavedChangesSortByTheirOwnValues() throws {
        var store = try Store()
        try store.expectSortedAsFolding(in: store.container.newContext())
        let objects = try store.context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        // Renamed so that the committed (folded) value would put them elsewhere.
        for object in objects where object.objectID.key % 7 == 0 {
            try object.setValue(object.objectID.key % 2 == 0 ? "ÄÄÄ zuerst" : "\u{10FFFF} zuletzt", forKey: "name")
        }
        for object in objects where object.objectID.key % 11 == 0 { try object.setValue(nil, forKey: "name") }
        for _ in 0..<50 { try store.insert() }
        try store.expectSortedAsFolding(in: store.context)
        // A child context sees its parent's changes as objects, never the column's values.
        let child = store.context.newChildContext()
        try store.expectSortedAsFolding(in: child)
        try store.context.save()
        try store.expectSortedAsFolding(in: store.container.newContext())
    }

    @Test func aColumnAPredicateBuiltServesTheSort() throws {
        let store = try Store()
        let context = store.container.newContext()
        _ = try context.count(
            for: FetchRequest<ManagedObject>(
                entityName: "Item", predicate: FetchPredicate(format: "name CONTAINS[c] 'Ж'")))
        #expect(store.foldedColumnExists)
        try store.expectSortedAsFolding(in: context)
    }
}
