/// A request to set attributes of every committed object of an entity that matches a predicate,
/// in the store, without loading the objects into a context.
///
/// Run it with `ManagedContext.execute(_:)`. It is one commit, like a save:
/// the values are checked first (type, optionality, validation rules) and uniqueness constraints
/// at commit; any violation refuses the whole batch. The store persists it durably, all or
/// nothing, each changed object's version goes up (so contexts holding an older version get a
/// conflict when they save it, by their merge policy), and a ``SaveNotification`` is published
/// on ``PersistentContainer/saves``. Objects that already hold the values are left alone.
///
/// Values are ``StoreValue``s, normalized to each attribute's type where that is lossless (an
/// integer literal for a `Double` attribute): `["price": 0, "name": "sold out"]`,
/// `["updatedAt": .date(now)]`, `["note": nil]`. Only attributes can be updated; set
/// relationships on objects, so that their inverses are kept.
///
/// For example:
/// ```swift
/// let request = BatchUpdateRequest(
///     Fruit.self, predicate: try FetchPredicate(format: "name BEGINSWITH %@", "a"), propertiesToUpdate: ["price": 0])
/// let result = try context.execute(request)
/// context.mergeChanges(from: result.notification)
/// ```
///
/// Core Data: `NSBatchUpdateRequest` (constant values only: no expressions).
public struct BatchUpdateRequest: Sendable, Hashable, CustomStringConvertible {
    /// The entity whose objects are updated.
    public var entityName: String
    /// The condition the objects must meet; `nil` updates every object of the entity.
    public var predicate: FetchPredicate?
    /// The new value of each attribute to set, by name.
    ///
    /// Core Data: `NSBatchUpdateRequest.propertiesToUpdate`.
    public var propertiesToUpdate: [String: StoreValue]

    /// A request to set `propertiesToUpdate` on the objects of the named entity that match
    /// `predicate`.
    public init(entityName: String, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: StoreValue] = [:]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }

    /// A request to set `propertiesToUpdate` on the objects of `type`'s entity that match
    /// `predicate`.
    public init<Object: ManagedObject>(
        _ type: Object.Type, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: StoreValue] = [:]
    ) {
        self.init(entityName: type.entityName, predicate: predicate, propertiesToUpdate: propertiesToUpdate)
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let values = propertiesToUpdate.keys.sorted().map { "\($0): \(propertiesToUpdate[$0]!)" }
        return "BatchUpdateRequest(entity: \(entityName)\(predicate.map { ", predicate: \($0)" } ?? ""), "
            + "set: [\(values.joined(separator: ", "))])"
    }
}
