import Foundation
import Testing

@testable import ObjectGraph

/// Two containers with the same rows, one with UUID, Decimal and Bool attribute indexes and
/// compound fetch indexes: every fetch must return the same objects from both.
private struct FetchIndexPair {
    static let uuids = (0..<40).map { UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", $0 * 7919, $0))! }
    static let decimals: [Decimal?] = [nil, 0, 1, Decimal(string: "1.5")!, Decimal(string: "-2.25")!, 100, .nan]

    static func model(indexed: Bool) throws -> ManagedObjectModel {
        var item = EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "id", type: .uuid, isOptional: true, isIndexed: indexed),
                AttributeDescription(name: "amount", type: .decimal, isOptional: true, isIndexed: indexed),
                AttributeDescription(name: "flag", type: .boolean, isOptional: true, isIndexed: indexed),
                AttributeDescription(name: "category", type: .string, isOptional: true),
                AttributeDescription(name: "price", type: .integer64, isOptional: true),
                AttributeDescription(name: "weight", type: .double, isOptional: true),
                AttributeDescription(name: "added", type: .date, isOptional: true),
            ])
        if indexed {
            item.indexes = [
                FetchIndexDescription(name: "byCategoryAndPrice", propertyNames: ["category", "price"]),
                FetchIndexDescription(name: "byFlagWeightAdded", propertyNames: ["flag", "weight", "added"]),
                FetchIndexDescription(name: "byAmountAndID", propertyNames: ["amount", "id"]),
                FetchIndexDescription(name: "byAdded", propertyNames: ["added"]),
            ]
        }
        return try ManagedObjectModel(entities: [item])
    }

    let plain: ManagedContext
    let indexed: ManagedContext
    let indexedContainer: PersistentContainer
    private let plainContainer: PersistentContainer
    var state: UInt64 = 7

    init(count: Int) throws {
        plainContainer = try PersistentContainer(model: Self.model(indexed: false), storeDescription: .inMemory)
        indexedContainer = try PersistentContainer(model: Self.model(indexed: true), storeDescription: .inMemory)
        plain = plainContainer.newContext()
        indexed = indexedContainer.newContext()
        for _ in 0..<count { try insert() }
        try plain.save()
        try indexed.save()
    }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func values() -> [String: Any?] {
        [
            "id": next(10) == 0 ? nil : Self.uuids[next(Self.uuids.count)],
            "amount": Self.decimals[next(Self.decimals.count)],
            "flag": next(4) == 0 ? nil : next(2) == 0,
            "category": next(6) == 0 ? nil : ["fruit", "veg", "nut", "Fruit"][next(4)],
            "price": next(8) == 0 ? nil : Int64(next(50)),
            "weight": next(8) == 0 ? nil : [Double.nan, -0.0, 1.5, 2, 7.25][next(5)],
            "added": next(8) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(next(20))),
        ]
    }

    mutating func insert() throws {
        let values = values()
        for context in [plain, indexed] {
            let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
            for (key, value) in values { try object.setValue(value, forKey: key) }
        }
    }

    /// Changes the values of some objects in both contexts (unsaved).
    mutating func update(_ count: Int) throws {
        let total = try plain.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
        for _ in 0..<count {
            let position = next(total)
            let values = values()
            let keys = values.keys.sorted().filter { _ in next(2) == 0 }
            for context in [plain, indexed] {
                let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).sorted {
                    $0.objectID.key < $1.objectID.key
                }
                for key in keys { try objects[position].setValue(values[key]!, forKey: key) }
            }
        }
    }

    func keys(_ format: String, _ arguments: [Any?]) throws -> (plain: [Int64], indexed: [Int64]) {
        let request = FetchRequest<ManagedObject>(
            entityName: "Item", predicate: try FetchPredicate(format: format, argumentArray: arguments))
        return (
            try plain.fetch(request).map(\.objectID.key).sorted(),
            try indexed.fetch(request).map(\.objectID.key).sorted()
        )
    }

    /// The plan the indexed container's committed table gives `format`, if any.
    func plan(_ format: String, _ arguments: [Any?] = []) throws -> IndexPlan? {
        let model = indexedContainer.model
        let info = try #require(model.info(named: "Item"))
        let compiled = try CompiledPredicate(
            FetchPredicate(format: format, argumentArray: arguments), entity: info, model: model)
        return IndexPlan(compiled, table: indexedContainer.committedSnapshot().tables[0], sort: nil)
    }
}

@Suite struct FetchIndexTests {
    static var predicates: [(String, [Any?])] {
        let uuid = FetchIndexPair.uuids[3]
        return [
            ("id == %@", [uuid]), ("id == %@", [FetchIndexPair.uuids[17]]), ("id == %@", [UUID()]),
            ("id IN %@", [[FetchIndexPair.uuids[1], FetchIndexPair.uuids[2], UUID()]]), ("id != %@", [uuid]),
            ("id == %@ AND flag == YES", [uuid]), ("id == nil", []),
            ("amount == 1", []), ("amount == 1.5", []), ("amount < 1.5", []), ("amount >= %@", [Decimal(1)]),
            ("amount BETWEEN {0, 2}", []), ("amount > -100000000000", []), ("amount IN {0, 100}", []),
            ("amount == %@", [Decimal.nan]), ("amount == nil", []), ("amount <= %@", [Double.infinity]),
            ("flag == YES", []), ("flag == NO", []), ("flag == 1", []), ("flag != YES", []), ("flag == nil", []),
            ("category == 'fruit' AND price == 7", []), ("category == 'fruit' AND price < 10", []),
            ("category == 'fruit' AND price BETWEEN {5, 20}", []), ("category == 'veg'", []),
            ("category == 'fruit' AND price == 7.5", []), ("category == 'fruit' AND price > 7.5", []),
            ("category ==[c] 'fruit' AND price == 7", []), ("price == 7", []),
            ("category == 'nut' AND price >= 40 AND price < 45", []),
            ("flag == YES AND weight == 2 AND added > %@", [Date(timeIntervalSinceReferenceDate: 10)]),
            ("flag == NO AND weight >= 0", []), ("flag == YES AND weight == -0.0", []),
            ("flag == YES AND added < %@", [Date(timeIntervalSinceReferenceDate: 5)]),
            ("amount == 1 AND id == %@", [uuid]), ("amount == 1.5 AND id IN %@", [[uuid]]),
            ("added == %@", [Date(timeIntervalSinceReferenceDate: 3)]),
            ("added > %@", [Date(timeIntervalSinceReferenceDate: 18)]),
        ]
    }

    // MARK: - Agreement with scans

    @Test func indexedAndScannedFetchesAgreeForNewIndexTypesAndCompoundIndexes() throws {
        var pair = try FetchIndexPair(count: 900)
        var found = 0
        for round in 0..<2 {
            for (format, arguments) in Self.predicates {
                let (plain, indexed) = try pair.keys(format, arguments)
                #expect(plain == indexed, "\(format) (round \(round))")
                found += plain.count
            }
            try pair.update(60)
            try pair.plain.save()
            try pair.indexed.save()
        }
        #expect(found > 1_000)
    }

    @Test func pendingChangesAreSeenOverIndexCandidates() throws {
        var pair = try FetchIndexPair(count: 400)
        try pair.update(40)
        for _ in 0..<20 { try pair.insert() }
        for (format, arguments) in Self.predicates {
            let (plain, indexed) = try pair.keys(format, arguments)
            #expect(plain == indexed, "\(format)")
        }
    }

    // MARK: - Planning

    @Test func lookupsByUUIDDecimalAndBoolUseTheirIndexes() throws {
        let pair = try FetchIndexPair(count: 900)
        for (format, arguments) in [
            ("id == %@", [FetchIndexPair.uuids[3]]), ("id IN %@", [[FetchIndexPair.uuids[1]]]),
            ("amount == 1.5", []), ("amount < 0", []), ("flag == NO AND id == %@", [FetchIndexPair.uuids[3]]),
        ] as [(String, [Any?])] {
            let plan = try #require(try pair.plan(format, arguments), "\(format)")
            #expect(plan.keys.count < 300, "\(format)")
        }
        #expect(try pair.plan("id != %@", [FetchIndexPair.uuids[3]]) == nil)
    }

    @Test func compoundIndexServesAnEqualityPrefixAndARangeOnTheNextAttribute() throws {
        let pair = try FetchIndexPair(count: 900)
        let table = pair.indexedContainer.committedSnapshot().tables[0]
        func count(_ format: String) throws -> Int {
            try pair.indexed.count(
                for: FetchRequest<ManagedObject>(entityName: "Item", predicate: FetchPredicate(format: format)))
        }
        let exact = try #require(try pair.plan("category == 'fruit' AND price == 7"))
        #expect(exact.keys.count == (try count("category == 'fruit' AND price == 7")))
        let range = try #require(try pair.plan("category == 'fruit' AND price BETWEEN {5, 9}"))
        #expect(range.keys.count == (try count("category == 'fruit' AND price BETWEEN {5, 9}")))
        // The first attribute alone, with no index of its own: the compound index narrows by it.
        let prefix = try #require(try pair.plan("category == 'veg'"))
        #expect(prefix.keys.count == (try count("category == 'veg'")))
        #expect(prefix.keys == prefix.keys.sorted())
        // Not a prefix: the second attribute alone scans.
        #expect(try pair.plan("price == 7") == nil)
        #expect(table.indexes.count == 7)
    }

    // MARK: - Model and schema

    @Test func indexOfUnknownOrUnindexableAttributeIsRefused() throws {
        for (index, key) in [
            (FetchIndexDescription(name: "a", propertyNames: ["missing"]), "missing"),
            (FetchIndexDescription(name: "b", propertyNames: ["data"]), "data"),
            (FetchIndexDescription(name: "c", propertyNames: []), "c"),
            (FetchIndexDescription(name: "d", propertyNames: ["name", "name"]), "d"),
            (FetchIndexDescription(name: "", propertyNames: ["name"]), nil),
        ] as [(FetchIndexDescription, String?)] {
            var entity = EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "data", type: .binary),
                ])
            entity.indexes = [index]
            let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
            #expect(error?.code == .invalidModel)
            #expect(error?.entityName == "Item")
            #expect(error?.key == key)
        }
        var twice = EntityDescription(name: "Item", attributes: [AttributeDescription(name: "name", type: .string)])
        twice.indexes = [
            FetchIndexDescription(name: "x", propertyNames: ["name"]),
            FetchIndexDescription(name: "x", propertyNames: ["name"]),
        ]
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [twice]) }
        #expect(error?.code == .invalidModel)
        #expect(error?.key == "x")
    }

    @Test func storedSchemaKeepsIndexesAndReadsSchemasWithout() throws {
        let model = try FetchIndexPair.model(indexed: true)
        let bytes = StoreSchema.encode(model.entities)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"indexes\":[{\"name\":\"byCategoryAndPrice\""))
        let read = try StoreSchema.decode(bytes, url: URL(fileURLWithPath: "/schema"))
        #expect(read.map(\.indexes) == model.entities.map(\.indexes))
        let plain = try FetchIndexPair.model(indexed: false)
        let old = StoreSchema.encode(plain.entities)
        #expect(!String(decoding: old, as: UTF8.self).contains("indexes"))
        #expect(try StoreSchema.decode(old, url: URL(fileURLWithPath: "/schema")).map(\.indexes) == [[]])
    }

    @Test(arguments: ["json", "binary"])
    func compoundIndexesAreRebuiltWhenAStoreLoads(kind: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.\(kind)")
        let description: StoreDescription = kind == "json" ? .jsonFile(url) : .binaryFile(url)
        let model = try FetchIndexPair.model(indexed: true)
        do {
            let container = try PersistentContainer(model: model, storeDescription: description)
            let context = container.newContext()
            for price in 0..<30 {
                let object = ManagedObject(entity: model.entity(named: "Item")!, insertInto: context)
                try object.setValue("fruit", forKey: "category")
                try object.setValue(Int64(price), forKey: "price")
                try object.setValue(FetchIndexPair.uuids[price], forKey: "id")
            }
            try context.save()
        }
        let container = try PersistentContainer(model: model, storeDescription: description)
        let table = container.committedSnapshot().tables[0]
        #expect(table.indexes.map(\.count) == [30, 0, 0, 30, 30, 30, 0])  // amount, flag and added are nil
        let fetched = try container.newContext().fetch(
            FetchRequest<ManagedObject>(
                entityName: "Item",
                predicate: FetchPredicate(format: "category == 'fruit' AND price == 12")))
        let ids = try fetched.map { try $0.value(forKey: "id") as? UUID }
        #expect(ids == [FetchIndexPair.uuids[12]])
    }

    // MARK: - Typed classes

    final class Produce: ManagedObject {
        @Attribute var category = ""
        @Attribute var price = 0
        @Attribute var id = UUID()
        override class var indexes: [FetchIndexDescription] {
            [
                FetchIndexDescription([\Produce.category, \Produce.price]),
                FetchIndexDescription([\Produce.id], name: "byID"),
            ]
        }
    }

    final class Misdeclared: ManagedObject {
        @Attribute var price = 0
        var doubled: Int { price * 2 }
        override class var indexes: [FetchIndexDescription] { [FetchIndexDescription([\Misdeclared.objectID])] }
    }

    @Test func typedClassDeclaresIndexesByKeyPath() throws {
        let model = try ManagedObjectModel(Produce.self)
        let entity = try #require(model.entity(named: "Produce"))
        #expect(entity.indexes.map(\.name) == ["category_price", "byID"])
        #expect(entity.indexes.map(\.propertyNames) == [["category", "price"], ["id"]])
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(Misdeclared.self) }
        #expect(error?.code == .invalidModel)
        #expect(error?.entityName == "Misdeclared")
    }
}
