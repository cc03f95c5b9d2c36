import Foundation
import ObjectGraph

final class Fruit: ManagedObject {
    @Attribute(indexed: true) var name = ""
    @Attribute var price: Int64 = 0
    @Relationship(inverse: "fruits") var basket: Basket?
    @Relationship(inverse: "fruits") var tags: Set<Tag>
}

final class Basket: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "basket", deleteRule: .cascade) var fruits: Set<Fruit>
    @Relationship(inverse: "basket") var owner: Owner?
}

final class Owner: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "owner", deleteRule: .deny) var basket: Basket?
}

final class Tag: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "tags") var fruits: Set<Fruit>
}

enum Ripeness: String, AttributeValue, Codable {
    case green, ripe, overripe
}

enum Grade: Int16, AttributeValue {
    case low = 1, high = 2
}

struct Origin: Codable, Hashable, AttributeValue {
    var country: String
    var farms: [String]
    var rating: Double
}

/// Every attribute type, with and without defaults.
final class Sample: ManagedObject {
    @Attribute var text = "default"
    @Attribute var flag = false
    @Attribute var small: Int16 = 0
    @Attribute var medium: Int32 = 0
    @Attribute var large: Int64 = 0
    @Attribute var count = 0
    @Attribute var single: Float = 0
    @Attribute var real: Double = 0
    @Attribute var amount = Decimal(0)
    @Attribute var date = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var blob = Data()
    @Attribute var identifier = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    @Attribute var link = URL(string: "https://example.com")!
    @Attribute var ripeness = Ripeness.green
    @Attribute var grade = Grade.low
    @Attribute var origin = Origin(country: "", farms: [], rating: 0)
    @Attribute var optionalText: String?
    @Attribute var optionalNumber: Int?
    @Attribute var optionalDate: Date?
    @Attribute var optionalOrigin: Origin?
    @Attribute var optionalRipeness: Ripeness?
    @Attribute var required: String
}

/// A subclass that records its lifecycle hooks.
final class Journaled: ManagedObject {
    @Attribute var title = ""
    var events: [String] = []

    override func awakeFromInsert() { events.append("awakeFromInsert") }
    override func awakeFromFetch() { events.append("awakeFromFetch") }
    override func willSave() { events.append("willSave") }
    override func didSave() { events.append("didSave") }
    override func validateForSave() throws {
        if title == "invalid" {
            throw PersistenceError.validation("A title must not be 'invalid'.", object: self, key: "title")
        }
    }
}

enum TestModels {
    static let fruits = try! ManagedObjectModel(Fruit.self, Basket.self, Owner.self, Tag.self)
    static let samples = try! ManagedObjectModel(Sample.self, Journaled.self)
}

/// A fresh container on a fresh in-memory store, with one context.
func makeContext(model: ManagedObjectModel = TestModels.fruits) throws -> (PersistentContainer, ManagedContext) {
    let container = try PersistentContainer(model: model, storeDescription: .inMemory)
    return (container, container.newContext())
}

@discardableResult
func makeFruit(_ context: ManagedContext, _ name: String, price: Int64 = 100) -> Fruit {
    let fruit = Fruit(context: context)
    fruit.name = name
    fruit.price = price
    return fruit
}
