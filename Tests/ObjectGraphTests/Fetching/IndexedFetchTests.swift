import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Two stores with the same data, one with every attribute indexed: every fetch must return
/// the same objects in the same order from both.
struct IndexedPair {
    static func model(indexed: Bool) -> ManagedObjectModel {
        let attributes = [
            AttributeDescription(name: "name", type: .string, isOptional: true, isIndexed: indexed),
            AttributeDescription(name: "price", type: .integer64, isOptional: true, isIndexed: indexed),
            AttributeDescription(name: "weight", type: .double, isOptional: true, isIndexed: indexed),
            AttributeDescription(name: "ratio", type: .float, isOptional: true, isIndexed: indexed),
            AttributeDescription(name: "added", type: .date, isOptional: true, isIndexed: indexed),
            AttributeDescription(name: "code", type: .integer16, isOptional: true, isIndexed: indexed),
            AttributeDescription(name: "flag", type: .boolean, isOptional: true, isIndexed: indexed),
        ]
        return try! ManagedObjectModel(entities: [EntityDescription(name: "Item", attributes: attributes)])
    }

    static let names: [String?] = [
        "apple", "Apple Pie", "apricot", "banana", "Ärger", "café", "cafe\u{301}", "CAFE", "caf", "りんご", "", nil,
        "straße", "e\u{301}clair", "éclair", "emoji 🍎", "a", "ab", "abc", "b", "z\u{10FFFF}", "zz", "a\u{301}",
        // Canonically equivalent to "Kelvin"; a CR LF across a prefix's end; a mark after "ab".
        "\u{212A}elvin", "Kelvin", "w1\r\nx", "ab\u{301}c",
    ]

    let plain: ManagedContext
    let indexed: ManagedContext
    let plainContainer: PersistentContainer
    let indexedContainer: PersistentContainer
    var random = Generator(seed: 42)

    init(count: Int, indexedStore: (any PersistentStore)? = nil) throws {
        plainContainer = try PersistentContainer(model: Self.model(indexed: false), storeDescription: .inMemory)
        indexedContainer =
            try indexedStore.map { try PersistentContainer(model: Self.model(indexed: true), store: $0) }
            ?? PersistentContainer(model: Self.model(indexed: true), storeDescription: .inMemory)
        plain = plainContainer.newContext()
        indexed = indexedContainer.newContext()
        for _ in 0..<count { try insert() }
        try save()
    }

    /// Deterministic pseudo-random numbers (a linear congruential generator).
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    mutating func values() -> [String: Any?] {
        let prices: [Int64?] = [nil, .max, .min, 1 << 53 + 1, 1 << 53, -5, 0]
        let weights: [Double?] = [nil, .nan, -0.0, 0.0, .infinity, -.infinity, 2, 2.5]
        let price = random.next(10) == 0 ? prices[random.next(prices.count)] : Int64(random.next(1_000))
        let weight = random.next(8) == 0 ? weights[random.next(weights.count)] : Double(random.next(1_000)) / 10
        let name = random.next(3) == 0 ? Self.names[random.next(Self.names.count)] : "w\(random.next(300))"
        let added: Date? = random.next(10) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(random.next(100)))
        let ratio: Float? = random.next(10) == 0 ? nil : Float(random.next(10)) / 10
        let code: Int16? = random.next(10) == 0 ? nil : Int16(random.next(7))
        let flag: Bool? = random.next(3) == 0 ? nil : random.next(2) == 0
        return [
            "name": name, "price": price, "weight": weight, "added": added, "ratio": ratio, "code": code, "flag": flag,
        ]
    }

    mutating func insert() throws {
        let values = values()
        for context in [plain, indexed] {
            let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
            for (key, value) in values { try object.setValue(value, forKey: key) }
        }
    }

    func objects(_ context: ManagedContext) throws -> [ManagedObject] {
        try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).sorted {
            $0.objectID.key < $1.objectID.key
        }
    }

    /// Pending changes, the same in both contexts: inserts, updates (of indexed values into and
    /// out of ranges, to nil) and deletes.
    mutating func change(inserts: Int, updates: Int, deletes: Int) throws {
        for _ in 0..<inserts { try insert() }
        let count = try objects(plain).count
        for _ in 0..<updates {
            let position = random.next(count)
            let values = values()
            let keys = ["name", "price", "weight", "added"].filter { _ in random.next(2) == 0 }
            for context in [plain, indexed] {
                let object = try objects(context)[position]
                for key in keys { try object.setValue(values[key]!, forKey: key) }
            }
        }
        for _ in 0..<deletes {
            let position = random.next(count - deletes)
            for context in [plain, indexed] { context.delete(try objects(context)[position]) }
        }
    }

    func save() throws {
        try plain.save()
        try indexed.save()
    }

    /// The keys each context fetches.
    func keys(_ request: FetchRequest<ManagedObject>) throws -> (plain: [Int64], indexed: [Int64]) {
        (try plain.fetch(request).map(\.objectID.key), try indexed.fetch(request).map(\.objectID.key))
    }

    /// Every index of the indexed store holds exactly the committed rows' non-nil, non-NaN
    /// values, in (value, key) order.
    func checkIndexes(sourceLocation: SourceLocation = #_sourceLocation) {
        let snapshot = indexedContainer.committedSnapshot()
        let table = snapshot.tables[0]
        #expect(table.indexes.count == 7, sourceLocation: sourceLocation)
        for index in table.indexes {
            var expected: [(StoreValue, Int64)] = []
            table.forEach { key, row in
                let value = row.values[index.slot]
                if value.isNull { return }
                if case .double(let number) = value, number.isNaN { return }
                expected.append((value, key))
            }
            var actual: [Int64] = []
            switch index {
            case .integer(_, let sorted):
                sorted.forEach(from: nil) {
                    actual.append($1); return true
                }
            case .real(_, let sorted):
                sorted.forEach(from: nil) {
                    actual.append($1); return true
                }
            case .string(_, let sorted):
                sorted.forEach(from: nil) {
                    actual.append($1); return true
                }
            case .decimal, .uuid, .compound:
                Issue.record(
                    "The pair indexes no decimal, UUID or compound attributes.", sourceLocation: sourceLocation)
            }
            #expect(actual.count == expected.count, sourceLocation: sourceLocation)
            #expect(Set(actual) == Set(expected.map(\.1)), sourceLocation: sourceLocation)
        }
    }
}

@Suite struct IndexedFetchTests {
    static let date = Date(timeIntervalSinceReferenceDate: 50)

    /// (format, arguments): comparisons an index answers, alone and in conjunctions, and ones
    /// that scan.
    static var predicates: [(String, [Any?])] {
        [
            ("price == 5", []), ("price = 5.0", []), ("price == 5.5", []), ("price < 10", []), ("price <= 10", []),
            ("price > 990", []), ("price >= 990", []), ("price BETWEEN {100, 200}", []),
            ("price BETWEEN {200, 100}", []), ("price IN {1, 2, 3, 500}", []), ("price IN {}", []),
            ("price IN {1, nil}", []), ("price == nil", []), ("price != 5", []),
            ("price > %@", [Decimal(string: "100.5")!]),
            ("price IN %@", [[1, 2.0, 3.5, Decimal(7)] as [Any]]), ("price == %@", [Int64.max]),
            ("price >= %@", [Int64(1 << 53)]), ("price < %@", [-1e30]), ("price > %@", [1e30]),
            ("price == %@", [Double.nan]),
            ("price BETWEEN {100, 200} AND name BEGINSWITH 'a'", []), ("name BEGINSWITH 'a' AND price > 500", []),
            ("price BETWEEN {100, 200} AND weight < 50 AND code IN {1, 2}", []),
            ("name == 'apple'", []), ("name == 'café'", []), ("name == %@", ["cafe\u{301}"]),
            ("name BEGINSWITH 'caf'", []),
            ("name BEGINSWITH 'e'", []), ("name BEGINSWITH ''", []), ("name BEGINSWITH 'Ä'", []),
            ("name BEGINSWITH %@", ["e\u{301}"]), ("name BEGINSWITH 'z'", []), ("name BEGINSWITH 'w1'", []),
            ("name BEGINSWITH[c] 'a'", []), ("name BEGINSWITH[cd] 'a'", []), ("name ==[c] 'apple'", []),
            ("name < 'b'", []), ("name >= 'z'", []), ("name BETWEEN {'a', 'c'}", []),
            ("name IN {'apple', 'straße', 'りんご', ''}", []), ("name IN[c] {'APPLE'}", []), ("name == ''", []),
            ("weight > 50", []), ("weight == 2", []), ("weight == 0", []), ("weight BETWEEN {1, 3.5}", []),
            ("weight < %@", [Decimal(string: "10.1")!]), ("weight IN {2, 2.5, 0}", []), ("weight <= -1", []),
            ("added > %@", [date]), ("added BETWEEN %@", [[date, Date(timeIntervalSinceReferenceDate: 60)]]),
            ("ratio >= 0.5", []), ("ratio == 0.1", []), ("code == 3", []), ("code IN {1, 2}", []), ("code < 3.5", []),
            ("flag == YES", []), ("price > 100 OR name == 'apple'", []), ("NOT price > 100", []),
            ("price >= 100 AND price <= 110", []), ("name ENDSWITH 'e' AND price < 300", []), ("TRUEPREDICATE", []),
            ("FALSEPREDICATE AND price == 5", []),
            // Conjunctions whose integer range an index finds exactly (the scan of its candidates
            // skips it) or as a superset (`<`, `>`), with prefixes decided by bytes or not.
            ("price >= 100 AND price < 200 AND name BEGINSWITH 'w1'", []),
            ("price > 100 AND name BEGINSWITH 'w'", []), ("price <= %@ AND name BEGINSWITH %@", [Int64.min, ""]),
            ("price > %@ AND name BEGINSWITH 'a'", [Int64.max]), ("price < %@", [Int64.min]),
            ("name BEGINSWITH 'K' AND price >= 0", []), ("name BEGINSWITH %@", ["w1\r"]),
            ("name BEGINSWITH 'ab' AND price BETWEEN {0, 999}", []),
            ("NOT (price BETWEEN {100, 200}) AND name BEGINSWITH 'a'", []),
            ("price BETWEEN {100, 200} AND (name BEGINSWITH 'a' OR name BEGINSWITH[c] 'W')", []),
            ("price BETWEEN {100, 200} AND NOT name BEGINSWITH 'w'", []),
        ]
    }

    static func by(
        _ key: String, _ ascending: Bool = true, _ comparison: ObjectGraph.SortDescriptor.Comparison = .caseSensitive
    ) -> ObjectGraph.SortDescriptor {
        ObjectGraph.SortDescriptor(key: key, ascending: ascending, comparison: comparison)
    }

    static let sorts: [[ObjectGraph.SortDescriptor]] = [
        [], [by("price")], [by("price", false)], [by("name")], [by("weight")], [by("price"), by("name", false)],
        [by("name", true, .caseInsensitive)], [by("added", false)],
    ]

    static let pages: [(limit: Int, offset: Int)] = [(0, 0), (5, 0), (0, 3), (7, 2)]

    /// Runs every predicate, sort and page in both contexts and requires the same keys.
    func compare(_ pair: IndexedPair, includesPendingChanges: Bool = true) throws -> Int {
        var compared = 0
        for (format, arguments) in Self.predicates {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            for sort in Self.sorts {
                for page in Self.pages {
                    var request = FetchRequest<ManagedObject>(
                        entityName: "Item", predicate: predicate, sortDescriptors: sort)
                    request.fetchLimit = page.limit
                    request.fetchOffset = page.offset
                    request.includesPendingChanges = includesPendingChanges
                    let (plain, indexed) = try pair.keys(request)
                    #expect(plain == indexed, "\(format) sorted by \(sort) page \(page)")
                    #expect(try pair.plain.count(for: request) == pair.indexed.count(for: request), "\(format)")
                    compared += plain.count
                }
            }
        }
        return compared
    }

    @Test func indexedAndScannedFetchesAgreeOnCommittedRows() throws {
        let pair = try IndexedPair(count: 700)
        pair.checkIndexes()
        #expect(try compare(pair) > 1_000)
    }

    @Test func indexedAndScannedFetchesAgreeWithPendingChanges() throws {
        var pair = try IndexedPair(count: 400)
        try pair.change(inserts: 30, updates: 60, deletes: 25)
        _ = try compare(pair)
        _ = try compare(pair, includesPendingChanges: false)
        try pair.save()
        pair.checkIndexes()
        _ = try compare(pair)
        try pair.change(inserts: 5, updates: 200, deletes: 40)
        try pair.save()
        pair.checkIndexes()
        _ = try compare(pair)
    }

    @Test func emptyStoreAndDeleteAllKeepIndexesEmpty() throws {
        var pair = try IndexedPair(count: 0)
        _ = try compare(pair)
        try pair.change(inserts: 50, updates: 0, deletes: 0)
        try pair.save()
        #expect(try pair.indexed.deleteAll(entityName: "Item") == 50)
        _ = try pair.plain.deleteAll(entityName: "Item")
        try pair.save()
        pair.checkIndexes()
        #expect(pair.indexedContainer.committedSnapshot().tables[0].indexes.allSatisfy { $0.count == 0 })
        _ = try compare(pair)
        // The emptied table keeps its indexes: objects inserted afterwards are indexed.
        try pair.change(inserts: 20, updates: 0, deletes: 0)
        try pair.save()
        pair.checkIndexes()
        #expect(pair.indexedContainer.committedSnapshot().tables[0].indexes.contains { $0.count > 0 })
        _ = try compare(pair)
    }

    @Test func failedStoreSavePublishesNoIndexChange() throws {
        let store = FaultInjectingStore()
        var pair = try IndexedPair(count: 200, indexedStore: store)
        let before = try pair.indexed.fetch(
            FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "price < 500")))
        try pair.change(inserts: 10, updates: 50, deletes: 10)
        store.failNextSave()
        #expect(throws: (any Error).self) { try pair.indexed.save() }
        pair.checkIndexes()
        var committed = FetchRequest<ManagedObject>(
            entityName: "Item", predicate: try FetchPredicate(format: "price < 500"))
        committed.includesPendingChanges = false
        #expect(try pair.indexed.fetch(committed).map(\.objectID) == before.map(\.objectID))
        try pair.save()
        pair.checkIndexes()
        _ = try compare(pair)
    }

    @Test(arguments: ["json", "binary"])
    func indexesAreBuiltWhenAStoreLoads(kind: String) throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "store.\(kind)")
        let description: StoreDescription = kind == "json" ? .jsonFile(url) : .binaryFile(url)
        var plainSide: (ManagedContext, PersistentContainer)
        do {
            var pair = try IndexedPair(count: 300, indexedStore: description.makeStore())
            try pair.change(inserts: 10, updates: 30, deletes: 10)
            try pair.save()
            plainSide = (pair.plain, pair.plainContainer)
        }
        let reopened = try IndexedPair.reopen(plainSide, store: description.makeStore())
        reopened.checkIndexes()
        _ = try compare(reopened)
    }

    @Test func indexOrderMatchesStableSortIncludingTies() throws {
        let pair = try IndexedPair(count: 2_000)
        let request = FetchRequest<ManagedObject>(
            entityName: "Item", predicate: try FetchPredicate(format: "price BETWEEN {10, 20}"),
            sortDescriptors: [Self.by("price")])
        let (plain, indexed) = try pair.keys(request)
        #expect(plain == indexed)
        #expect(plain.count > 20)
    }
}

extension IndexedPair {
    /// `pair` with its indexed side reopened from `store`.
    static func reopen(_ plain: (ManagedContext, PersistentContainer), store: any PersistentStore) throws -> IndexedPair
    {
        IndexedPair(
            plain: plain.0, plainContainer: plain.1,
            indexedContainer: try PersistentContainer(model: model(indexed: true), store: store))
    }

    private init(plain: ManagedContext, plainContainer: PersistentContainer, indexedContainer: PersistentContainer) {
        self.plain = plain
        self.plainContainer = plainContainer
        self.indexedContainer = indexedContainer
        self.indexed = indexedContainer.newContext()
    }
}

@Suite struct IndexPlanTests {
    /// Only an integer index's exact ranges are implied for the candidates (their scan skips
    /// them); `<`, `>`, non-integer bounds, other indexes and lists of points are re-tested.
    @Test func impliedTestsAreTheExactIntegerRanges() throws {
        let pair = try IndexedPair(count: 700)
        let table = pair.indexedContainer.committedSnapshot().tables[0]
        let model = pair.indexedContainer.model
        let info = try #require(model.info(named: "Item"))
        for (format, implied) in [
            ("price BETWEEN {100, 200}", 1), ("price > 900", 0), ("price >= 900", 1), ("price == 5", 1),
            ("price == 5.5", 0), ("price < 100.5", 0), ("price <= 100", 1), ("weight BETWEEN {1, 2}", 0),
            ("name BEGINSWITH 'a'", 0), ("price IN {1, 2}", 0), ("price BETWEEN {100, 200} AND price <= 150", 2),
            ("price BETWEEN {100, 200} AND name BEGINSWITH 'a'", 1), ("code == 3", 1),
        ] {
            let compiled = try CompiledPredicate(FetchPredicate(format: format), entity: info, model: model)
            let plan = try #require(IndexPlan(compiled, table: table, sort: nil), "\(format)")
            #expect(plan.impliedTests.count == implied, "\(format)")
        }
    }

    @Test func intersectionKeepsTheFirstListsOrderAndIgnoresKeysOutOfRange() {
        #expect(IndexPlan.keys([9, 3, 64, 65, 1], in: [1, 64, 65, 9, 200, -1], below: 100) == [9, 64, 65, 1])
        #expect(IndexPlan.keys([], in: [1, 2], below: 10).isEmpty)
        #expect(IndexPlan.keys([1, 2], in: [], below: 10).isEmpty)
        #expect(IndexPlan.keys([0, 63, 64], in: [0, 63, 64], below: 1).isEmpty == false)
        #expect(IndexPlan.keys([0, 63, 64], in: [0, 63, 64], below: 1) == [0])
    }

    /// A child context over an indexed store: its own and its parent's unsaved changes override
    /// the committed rows the index selects, as without an index.
    @Test func childContextsSeeLayeredChangesOverIndexCandidates() throws {
        var pair = try IndexedPair(count: 300)
        try pair.change(inserts: 10, updates: 40, deletes: 10)
        let children = (pair.plain.newChildContext(), pair.indexed.newChildContext())
        var random = IndexedPair.Generator(seed: 7)
        for (format, value) in [("price", 150 as Any?), ("name", "apple"), ("price", nil), ("name", "w12")] {
            for _ in 0..<15 {
                let position = random.next(290)
                for child in [children.0, children.1] {
                    let objects = try child.fetch(FetchRequest<ManagedObject>(entityName: "Item")).sorted {
                        $0.objectID.key < $1.objectID.key
                    }
                    try objects[position].setValue(value, forKey: format)
                }
            }
        }
        for child in [children.0, children.1] {
            let objects = try child.fetch(FetchRequest<ManagedObject>(entityName: "Item")).sorted {
                $0.objectID.key < $1.objectID.key
            }
            child.delete(objects[3])
            let inserted = ManagedObject(entity: child.model.entity(named: "Item")!, insertInto: child)
            try inserted.setValue(Int64(150), forKey: "price")
            try inserted.setValue("apple", forKey: "name")
        }
        var compared = 0
        for (format, arguments) in IndexedFetchTests.predicates {
            for sort in IndexedFetchTests.sorts {
                let request = FetchRequest<ManagedObject>(
                    entityName: "Item", predicate: try FetchPredicate(format: format, argumentArray: arguments),
                    sortDescriptors: sort)
                let plain = try children.0.fetch(request).map(\.objectID.key)
                let indexed = try children.1.fetch(request).map(\.objectID.key)
                #expect(plain == indexed, "\(format) sorted by \(sort)")
                #expect(try children.0.count(for: request) == children.1.count(for: request), "\(format)")
                compared += plain.count
            }
        }
        #expect(compared > 1_000)
    }
}
