/// One object as a store keeps it: its ID, version and values.
///
/// `values` holds one ``StoreValue`` per property of the entity, attributes first in model order,
/// then relationships in model order.
public struct StoreRecord: Sendable, Hashable {
    /// The object's ID.
    public var objectID: ObjectID
    /// Incremented by each save that changes the object; starts at 1.
    public var version: Int64
    /// The values by property position.
    public var values: [StoreValue]

    /// Creates a record.
    public init(objectID: ObjectID, version: Int64, values: [StoreValue]) {
        self.objectID = objectID
        self.version = version
        self.values = values
    }
}
