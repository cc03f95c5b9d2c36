import Foundation
import Testing

@testable import ObjectGraph

/// A sorted fetch of many objects, page by page: every offset and limit must give the objects
/// of a plain sort, once each, the registered instances where there are some, pending changes
/// included. (Written for making objects in key order and placing them at their sorted
/// positions; that measured slower, see Docs/Benchmarks.md, and was not kept.)
@Suite struct SortedFetchOrderTests {
    static let total = 2_000

    struct Store {
        let container: PersistentContainer
        let context: ManagedContext
        /// The saved objects in key order, held (a context holds unchanged objects weakly).
        var objects: [ManagedObject] = []
        /// Each object's name by key.
        var names: [Int64: String?] = [:]

        init() throws {
            container = try PersistentContainer(
                model: PrefixColumnStore.model(priceIndexed: false), storeDescription: .inMemory)
            context = container.newContext()
            var random = IndexedPair.Generator(seed: 11)
            for index in 0..<SortedFetchOrderTests.total {
                let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
                // Every tenth name repeats, every fiftieth is nil: ties keep key order.
                let name: String? =
                    index % 50 == 0 ? nil : index % 10 == 0 ? "tie" : "n\(random.next(100_000))é"
                try object.setValue(name, forKey: "name")
                try object.setValue(Int64(index), forKey: "price")
                objects.append(object)
            }
            try context.save()
            for object in objects { names[object.objectID.key] = try name(of: object) }
        }

        func name(of object: ManagedObject) throws -> String? { try object.value(forKey: "name") as? String }

        /// The keys in the order of a plain sort by name (nil first), ties by key.
        func expectedKeys(ascending: Bool) -> [Int64] {
            names.keys.sorted { lhs, rhs in
                let (a, b) = (names[lhs]!, names[rhs]!)
                if a == b { return lhs < rhs }
                switch (a, b) {
                case (nil, _): return ascending
                case (_, nil): return !ascending
                case let (a?, b?): return ascending ? a < b : b < a
                }
            }
        }

        func request(ascending: Bool, offset: Int, limit: Int) -> FetchRequest<ManagedObject> {
            var request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [SortDescriptor(key: "name", ascending: ascending)]
            request.fetchOffset = offset
            request.fetchLimit = limit
            return request
        }
    }

    static let pages = [(0, 0), (0, 600), (100, 1_000), (1_400, 0), (1_999, 0), (0, 511), (3_000, 0)]

    @Test(arguments: [true, false])
    func everyPageHoldsTheObjectsOfAPlainSort(ascending: Bool) throws {
        let store = try Store()
        let fresh = store.container.newContext()
        let expected = store.expectedKeys(ascending: ascending)
        for (offset, limit) in Self.pages {
            let page = expected.dropFirst(offset).prefix(limit == 0 ? Int.max : limit)
            let request = store.request(ascending: ascending, offset: offset, limit: limit)
            let objects = try fresh.fetch(request)
            #expect(objects.map(\.objectID.key) == Array(page), "offset \(offset), limit \(limit)")
            #expect(Set(objects.map(ObjectIdentifier.init)).count == objects.count)
            #expect(objects.allSatisfy { fresh.registeredObject(for: $0.objectID) === $0 })
            #expect(try fresh.fetchObjectIDs(request).map(\.key) == Array(page))
        }
        // A second fetch returns the same instances, in the same order.
        let all = try fresh.fetch(store.request(ascending: ascending, offset: 0, limit: 0))
        let again = try fresh.fetch(store.request(ascending: ascending, offset: 0, limit: 0))
        #expect(zip(all, again).allSatisfy { $0 === $1 } && all.count == Self.total)
    }

    @Test func pendingInsertsChangesAndDeletesTakeTheirPlaces() throws {
        var store = try Store()
        let context = store.context
        let registered = store.objects
        try registered[5].setValue("aaa first", forKey: "name")
        store.names[registered[5].objectID.key] = "aaa first"
        context.delete(registered[7])
        store.names.removeValue(forKey: registered[7].objectID.key)
        for index in 0..<600 {
            let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
            try object.setValue("p\(index % 37)", forKey: "name")
            store.names[object.objectID.key] = "p\(index % 37)"
        }
        let objects = try context.fetch(store.request(ascending: true, offset: 0, limit: 0))
        #expect(objects.map(\.objectID.key) == store.expectedKeys(ascending: true))
        #expect(try objects.first { try store.name(of: $0) != nil } === registered[5])
        #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(!objects.contains { $0 === registered[7] })
    }
}
