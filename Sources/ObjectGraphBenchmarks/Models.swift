import Foundation
import ObjectGraph

final class Item: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Attribute var weight = 0.0
    @Attribute var createdAt = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var id = UUID()
    @Relationship(inverse: "items") var shelf: Shelf?
}

final class Shelf: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "shelf") var items: Set<Item>
}

/// The two-entity model of a typical unit test.
final class Fruit: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Relationship(inverse: "fruits") var basket: Basket?
}

final class Basket: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "basket") var fruits: Set<Fruit>
}
