import Foundation
import ObjectGraph

/// The fixed model the fuzz targets decode against: every attribute type, a to-one relationship,
/// an ordered to-many one and a many-to-many one.
public enum FuzzModel {
    /// Items (every attribute type), their owner, and tags.
    public static let model: ManagedObjectModel = {
        let item = EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "text", type: .string),
                AttributeDescription(name: "flag", type: .boolean, isOptional: true),
                AttributeDescription(name: "small", type: .integer16, isOptional: true),
                AttributeDescription(name: "medium", type: .integer32, isOptional: true),
                AttributeDescription(name: "large", type: .integer64, isOptional: true),
                AttributeDescription(name: "single", type: .float, isOptional: true),
                AttributeDescription(name: "real", type: .double, isOptional: true),
                AttributeDescription(name: "amount", type: .decimal, isOptional: true),
                AttributeDescription(name: "date", type: .date, isOptional: true),
                AttributeDescription(name: "blob", type: .binary, isOptional: true),
                AttributeDescription(name: "info", type: .codable, isOptional: true),
                AttributeDescription(name: "identifier", type: .uuid, isOptional: true),
                AttributeDescription(name: "link", type: .uri, isOptional: true),
            ],
            relationships: [
                RelationshipDescription(name: "owner", destination: "Owner", inverse: "items"),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
            ])
        let owner = EntityDescription(
            name: "Owner",
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [
                RelationshipDescription(
                    name: "items", destination: "Item", inverse: "owner", isToMany: true, isOrdered: true)
            ])
        let tag = EntityDescription(
            name: "Tag",
            attributes: [AttributeDescription(name: "title", type: .string)],
            relationships: [
                RelationshipDescription(name: "items", destination: "Item", inverse: "tags", isToMany: true)
            ])
        return try! ManagedObjectModel(entities: [item, owner, tag])
    }()

    static func item(_ key: Int64) -> ObjectID { ObjectID(entityName: "Item", key: key) }
    static func owner(_ key: Int64) -> ObjectID { ObjectID(entityName: "Owner", key: key) }
    static func tag(_ key: Int64) -> ObjectID { ObjectID(entityName: "Tag", key: key) }

    /// Item 1 with a value of every type, item 2 with nulls, an owner of both and a tag on item 1.
    static let fullItem = StoreRecord(
        objectID: item(1), version: 3,
        values: [
            .string("caf\u{E9} \"quoted\"\n"), .bool(true), .int(-7), .int(70_000), .int(-(1 << 40)),
            .float(1.5), .double(-0.25), .decimal(Decimal(string: "12.34")!),
            .date(Date(timeIntervalSinceReferenceDate: 1_000)), .data(Data([0, 1, 2, 255])),
            .data(Data(#"{"a":[1,2]}"#.utf8)), .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            .url(URL(string: "https://example.com/a?b=c")!), .object(owner(1)), .objects([tag(1)]),
        ])
    static let emptyItem = StoreRecord(
        objectID: item(2), version: 1,
        values: [
            .string(""), .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null,
            .objects([]),
        ])
    static let owner1 = StoreRecord(
        objectID: owner(1), version: 2, values: [.string("ann"), .objects([item(1)])])
    static let tag1 = StoreRecord(objectID: tag(1), version: 1, values: [.string("red"), .objects([item(1)])])

    /// A small consistent snapshot: two items, an owner and a tag.
    public static func sampleSnapshot() -> StoreSnapshot {
        var snapshot = StoreSnapshot(model: model)
        for record in [fullItem, emptyItem, owner1, tag1] { try! snapshot.insert(record) }
        snapshot.reserveKeys(ofEntity: "Tag", below: 5)
        return snapshot
    }
}
