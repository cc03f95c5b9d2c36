/// An index over one or more attributes of an entity, which fetches use to find the objects a
/// predicate selects without reading every object of the entity.
///
/// A compound index (several properties) answers an equality test on each of its first
/// properties (a prefix), optionally followed by a range or equality test on the next one: an
/// index on `["category", "price"]` serves `category == 'fruit' AND price < 2` and
/// `category == 'fruit'`, but not `price < 2` alone. An index of one property serves the same
/// tests as ``AttributeDescription/isIndexed``. Indexable types: integers, `Bool`, `Float`,
/// `Double`, `Date`, `Decimal`, `String` and `UUID`.
///
/// For example:
/// ```swift
/// var fruit = EntityDescription(name: "Fruit", attributes: [
///     AttributeDescription(name: "category", type: .string),
///     AttributeDescription(name: "price", type: .double),
/// ])
/// fruit.indexes = [FetchIndexDescription(name: "byCategoryAndPrice", propertyNames: ["category", "price"])]
/// ```
///
/// Core Data: `NSFetchIndexDescription` (its elements' property names); SwiftData: `#Index`.
public struct FetchIndexDescription: Sendable, Hashable {
    /// The index's name, unique among the entity's indexes.
    public var name: String
    /// The attributes the index orders by, most significant first.
    public var propertyNames: [String]
    /// Why a typed declaration names no property (a key path that reads none), reported when the
    /// model is made.
    var problem: String?

    /// Creates an index over the attributes `propertyNames`, most significant first.
    ///
    /// Core Data: `NSFetchIndexDescription(name:elements:)`.
    public init(name: String, propertyNames: [String]) {
        self.name = name
        self.propertyNames = propertyNames
    }
}
