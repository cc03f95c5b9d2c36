import Foundation

@testable import ObjectGraph

/// The random oracle's data: items with every attribute type (and awkward values: nil, NaN,
/// infinities, the extremes of each integer size, Unicode that folds in surprising ways), in
/// groups (to-one), with tags (many-to-many, join tables) and parts (to-many read from the
/// parts' to-one column), and references that outlive their objects (to-one and to-many
/// relationships without an inverse whose targets were deleted).
enum SQLTranslationCatalog {
    static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: true, isIndexed: true),
                AttributeDescription(name: "flag", type: .boolean, isOptional: true),
                AttributeDescription(name: "small", type: .integer16, isOptional: true),
                AttributeDescription(name: "count", type: .integer64, isOptional: true, isIndexed: true),
                AttributeDescription(name: "single", type: .float, isOptional: true),
                AttributeDescription(name: "real", type: .double, isOptional: true),
                AttributeDescription(name: "amount", type: .decimal, isOptional: true),
                AttributeDescription(name: "when", type: .date, isOptional: true),
                AttributeDescription(name: "code", type: .uuid, isOptional: true),
                AttributeDescription(name: "bytes", type: .binary, isOptional: true),
                AttributeDescription(name: "link", type: .uri, isOptional: true),
            ],
            relationships: [
                RelationshipDescription(name: "group", destination: "Group", inverse: "items"),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                RelationshipDescription(name: "parts", destination: "Part", inverse: "item", isToMany: true),
                // No inverse: deleting a part leaves its key here (a member the engine skips).
                RelationshipDescription(name: "favorites", destination: "Part", inverse: nil, isToMany: true),
            ]),
        EntityDescription(
            name: "Group",
            attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: true),
                AttributeDescription(name: "rank", type: .integer64, isOptional: true),
            ],
            relationships: [
                RelationshipDescription(name: "items", destination: "Item", inverse: "group", isToMany: true),
                RelationshipDescription(name: "parent", destination: "Group", inverse: nil),
            ]),
        EntityDescription(
            name: "Tag",
            attributes: [
                AttributeDescription(name: "label", type: .string, isOptional: true),
                AttributeDescription(name: "weight", type: .double, isOptional: true),
            ],
            relationships: [
                RelationshipDescription(name: "items", destination: "Item", inverse: "tags", isToMany: true)
            ]),
        EntityDescription(
            name: "Part",
            attributes: [
                AttributeDescription(name: "serial", type: .string, isOptional: true),
                AttributeDescription(name: "quantity", type: .integer32, isOptional: true),
            ],
            relationships: [RelationshipDescription(name: "item", destination: "Item", inverse: "parts")]),
    ])

    // MARK: - Values

    static let strings: [String?] = [
        nil, "", "a", "A", "abc", "ABC", "Abc", "abd", "ab", "b", "É", "é", "e\u{301}", "E", "e", "ß", "SS", "ss",
        "straße", "STRASSE", "İ", "i", "ı", "I", "istanbul", "İstanbul", "K", "\u{212A}", "k", "K9", "\u{212A}9",
        ";", "\u{37E}", "`", "café", "CAFÉ", "cafe\u{301}", "Café au lait", "🍎", "a🍎b", "emoji 🍎", "x*y", "x?y",
        "a\\b", "%_", "100%", "Ünïcödé", "ǅ", "ﬁ", "fi", "a\r\nb", "\u{0}nul", "zzz", "~", "\u{7F}",
    ]
    static let integers: [Int64?] = [
        nil, 0, 1, -1, 2, 42, 100, -100, Int64.max, Int64.min, (1 << 53) + 1, -(1 << 53) - 1, 9_007_199_254_740_992,
    ]
    static let smalls: [Int64?] = [nil, 0, 1, -1, 7, Int64(Int16.max), Int64(Int16.min)]
    static let doubles: [Double?] = [
        nil, 0, -0.0, 1, 1.5, -1.5, 0.1, 42, .nan, .infinity, -.infinity, 1e300, -1e-300, 0x1p53 + 2,
        Double(Int64.max), .leastNonzeroMagnitude,
    ]
    static let floats: [Float?] = [nil, 0, 1, 1.5, 0.1, .nan, .infinity, -2.5, 42]
    static let decimals: [Decimal?] = [
        nil, 0, 1, Decimal(string: "1.5")!, Decimal(string: "-2")!, Decimal(string: "3.14159")!,
        Decimal(string: "100000000000000000000")!, Decimal(string: "0.1")!, 42,
    ]
    static let dates: [Date?] = [
        nil, Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -86_400.5),
        Date(timeIntervalSinceReferenceDate: 700_000_000), Date(timeIntervalSinceReferenceDate: 1e10),
    ]
    static let uuids: [UUID?] = [
        nil, UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000000")!,
    ]
    static let blobs: [Data?] = [nil, Data(), Data([0]), Data([1, 2, 3]), Data([0xFF]), Data([1, 2])]
    static let links: [URL?] = [nil, URL(string: "https://a.example/x")!, URL(string: "file:///tmp/y")!]

    static let itemCount = 90

    /// Inserts the catalog, the same each time (a fixed seed).
    static func populate(_ context: ManagedContext) throws {
        var random = SeededGenerator(seed: 22)
        func entity(_ name: String) -> EntityDescription { context.model.entity(named: name)! }
        var groups: [ManagedObject] = []
        for index in 0..<6 {
            let group = ManagedObject(entity: entity("Group"), insertInto: context)
            try group.setValue(strings[(index * 7) % strings.count], forKey: "title")
            try group.setValue(index == 3 ? nil : Int64(index * 10 - 20), forKey: "rank")
            if index > 0 { try group.setValue(groups[index / 2], forKey: "parent") }
            groups.append(group)
        }
        var parts: [ManagedObject] = []
        var tags: [ManagedObject] = []
        for index in 0..<8 {
            let tag = ManagedObject(entity: entity("Tag"), insertInto: context)
            try tag.setValue(strings[(index * 5 + 2) % strings.count], forKey: "label")
            try tag.setValue(doubles[index % doubles.count], forKey: "weight")
            tags.append(tag)
        }
        for index in 0..<4 {
            // Parts of no item (favorites can reach them): a to-one hop past a to-many step that
            // finds nothing.
            let part = ManagedObject(entity: entity("Part"), insertInto: context)
            try part.setValue(strings[index + 2], forKey: "serial")
            parts.append(part)
        }
        for index in 0..<itemCount {
            let item = ManagedObject(entity: entity("Item"), insertInto: context)
            try item.setValue(
                index < strings.count ? strings[index] : strings.randomElement(using: &random)!, forKey: "name")
            try item.setValue([nil, true, false].randomElement(using: &random)!, forKey: "flag")
            try item.setValue(smalls.randomElement(using: &random)!.map { Int16($0) }, forKey: "small")
            try item.setValue(
                index < integers.count ? integers[index] : integers.randomElement(using: &random)!, forKey: "count")
            try item.setValue(floats.randomElement(using: &random)!, forKey: "single")
            try item.setValue(
                index < doubles.count ? doubles[index] : doubles.randomElement(using: &random)!, forKey: "real")
            try item.setValue(decimals.randomElement(using: &random)!, forKey: "amount")
            try item.setValue(dates.randomElement(using: &random)!, forKey: "when")
            try item.setValue(uuids.randomElement(using: &random)!, forKey: "code")
            try item.setValue(blobs.randomElement(using: &random)!, forKey: "bytes")
            try item.setValue(links.randomElement(using: &random)!, forKey: "link")
            if Int.random(in: 0..<5, using: &random) > 0 {
                try item.setValue(groups.randomElement(using: &random)!, forKey: "group")
            }
            let tagCount = Int.random(in: 0..<4, using: &random)
            try item.setValue(Set((0..<tagCount).map { _ in tags.randomElement(using: &random)! }), forKey: "tags")
            for _ in 0..<Int.random(in: 0..<3, using: &random) {
                let part = ManagedObject(entity: entity("Part"), insertInto: context)
                try part.setValue(strings.randomElement(using: &random)!, forKey: "serial")
                try part.setValue(smalls.randomElement(using: &random)!.map { Int32($0) }, forKey: "quantity")
                try part.setValue(item, forKey: "item")
                parts.append(part)
            }
            let favorites = (0..<Int.random(in: 0..<3, using: &random)).compactMap { _ in
                parts.randomElement(using: &random)
            }
            try item.setValue(Set(favorites), forKey: "favorites")
        }
        // Some parts and a parent group deleted by batch requests, so that relationships to
        // deleted objects (with and without an inverse) are read as the store left them.
        try context.save()
        let doomed = stride(from: 0, to: parts.count, by: 4).map { PredicateValue.object(parts[$0].objectID) }
        let partPredicate = FetchPredicate(.comparison(.init(.evaluatedObject, .in, .constant(.array(doomed)))))
        _ = try context.execute(BatchDeleteRequest(entityName: "Part", predicate: partPredicate))
        let groupPredicate = FetchPredicate(
            .comparison(.init(.evaluatedObject, .equalTo, .constant(.object(groups[1].objectID)))))
        _ = try context.execute(BatchDeleteRequest(entityName: "Group", predicate: groupPredicate))
    }
}
