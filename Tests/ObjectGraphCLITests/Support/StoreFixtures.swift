import Foundation
import ObjectGraph

/// Store files for the tool to read: a model with every attribute type, an ordered to-many
/// relationship and a uniqueness constraint, saved in several saves so that a binary log has
/// several frames.
enum StoreFixtures {
    static let basket = EntityDescription(
        name: "Basket",
        attributes: [AttributeDescription(name: "label", type: .string)],
        relationships: [
            RelationshipDescription(
                name: "fruits", destination: "Fruit", inverse: "basket", isToMany: true, isOrdered: true,
                deleteRule: .cascade)
        ])

    static let fruit = EntityDescription(
        name: "Fruit",
        attributes: [
            AttributeDescription(name: "name", type: .string, isIndexed: true),
            AttributeDescription(name: "price", type: .integer64),
            AttributeDescription(name: "note", type: .string, isOptional: true),
        ],
        relationships: [RelationshipDescription(name: "basket", destination: "Basket", inverse: "fruits")],
        uniquenessConstraints: [["name"]])

    static let sample = EntityDescription(
        name: "Sample",
        attributes: [
            AttributeDescription(name: "text", type: .string),
            AttributeDescription(name: "flag", type: .boolean),
            AttributeDescription(name: "small", type: .integer16),
            AttributeDescription(name: "medium", type: .integer32),
            AttributeDescription(name: "large", type: .integer64),
            AttributeDescription(name: "single", type: .float),
            AttributeDescription(name: "real", type: .double),
            AttributeDescription(name: "amount", type: .decimal),
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "blob", type: .binary),
            AttributeDescription(name: "identifier", type: .uuid),
            AttributeDescription(name: "link", type: .uri),
            AttributeDescription(name: "payload", type: .codable),
            AttributeDescription(name: "missing", type: .double, isOptional: true),
        ])

    /// Entities in a deliberately unsorted order: the file keeps it, dumps sort by name.
    static let model = try! ManagedObjectModel(entities: [sample, fruit, basket])

    static let sampleValues: [String: StoreValue] = [
        "text": .string("りんご \"quoted\"\nline\t\u{1}"),
        "flag": .bool(true),
        "small": .int(Int64(Int16.min)),
        "medium": .int(-7),
        "large": .int(Int64.max),
        "single": .float(1.1),
        "real": .double(-0.1),
        "amount": .decimal(Decimal(string: "12345.6789", locale: Locale(identifier: "en_US_POSIX"))!),
        "date": .date(Date(timeIntervalSinceReferenceDate: 700_000_000.123_456)),
        "blob": .data(Data([0, 1, 2, 254, 255])),
        "identifier": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        "link": .url(URL(string: "https://example.com/a?b=c&d=%20")!),
        "payload": .data(Data(#"{"farms":["a"],"rating":4.5}"#.utf8)),
        "missing": .null,
    ]

    static func storeDescription(_ kind: StoreFileKind, _ url: URL) -> StoreDescription {
        switch kind {
        case .json: .jsonFile(url)
        case .binary: .binaryFile(url)
        case .sqlite: .sqliteFile(url)
        }
    }

    /// A store of `kind` in a fresh directory: baskets "kitchen" (apple, pear, fig) and "garden",
    /// one sample; then a second save raises the pear's price and deletes the fig. A binary store
    /// then has three frames (the empty store, each save).
    static func makeStore(_ kind: StoreFileKind, named name: String? = nil) throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent(
            name ?? (kind == .json ? "fruits.json" : kind == .sqlite ? "fruits.sqlite" : "fruits.store"))
        let container = try PersistentContainer(model: model, storeDescription: storeDescription(kind, url))
        let context = container.newContext()
        let kitchen = insert("Basket", ["label": "kitchen"], into: context)
        _ = insert("Basket", ["label": "garden"], into: context)
        var fruits: [ManagedObject] = []
        for (name, price) in [("apple", 120), ("pear", 80), ("fig", 300)] {
            fruits.append(insert("Fruit", ["name": .string(name), "price": .int(Int64(price))], into: context))
        }
        try kitchen.setValue(fruits, forKey: "fruits")
        _ = insert("Sample", sampleValues, into: context)
        try context.save()
        try fruits[1].setValue(Int64(90), forKey: "price")
        context.delete(fruits[2])
        try context.save()
        return url
    }

    /// Opens the store again and renames the apple: one more frame in a binary store.
    static func appendSave(_ kind: StoreFileKind, at url: URL, name: String = "green apple") throws {
        let container = try PersistentContainer(model: model, storeDescription: storeDescription(kind, url))
        let context = container.newContext()
        let apple = try context.fetch(FetchRequest<ManagedObject>(entityName: "Fruit")).first {
            (try? $0.value(forKey: "price")) as? Int64 == 120
        }
        try apple?.setValue(name, forKey: "name")
        try context.save()
    }

    @discardableResult
    static func insert(_ entity: String, _ values: [String: StoreValue], into context: ManagedContext)
        -> ManagedObject
    {
        let object = ManagedObject(entity: model.entity(named: entity)!, insertInto: context)
        for (key, value) in values { try! object.setValue(value, forKey: key) }
        return object
    }

    /// Every record of every entity, and every entity's next key: what a conversion must keep.
    static func contents(of url: URL) throws -> StoreContents {
        let snapshot = try StoreFileInspector.snapshot(of: url)
        var contents = StoreContents()
        for entity in snapshot.model.entities {
            var records: [StoreRecord] = []
            snapshot.forEachRecord(ofEntity: entity.name) { records.append($0) }
            contents.records[entity.name] = records
            contents.nextKeys[entity.name] = snapshot.nextKey(ofEntity: entity.name)
        }
        return contents
    }

    static func bytes(_ url: URL) -> [UInt8] {
        (try? Array(Data(contentsOf: url))) ?? []
    }

    static func write(_ bytes: [UInt8], to url: URL) {
        try! Data(bytes).write(to: url)
    }

    static func size(_ url: URL) -> Int { bytes(url).count }

    /// The names in the file's directory, sorted.
    static func directoryListing(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []).sorted()
    }
}

/// Every record and next key of a store file, by entity name.
struct StoreContents: Equatable {
    var records: [String: [StoreRecord]] = [:]
    var nextKeys: [String: Int64] = [:]
}
