/// A request to delete every committed object of an entity that matches a predicate, in the
/// store, without loading the objects into a context.
///
/// Run it with `ManagedContext.execute(_:)`. It is one commit, like a save:
/// the delete rules apply (`cascade` deletes the dependants, `nullify` removes the deleted objects
/// from the inverse relationships, `deny` refuses the whole batch), the store persists it durably,
/// all or nothing, and a ``SaveNotification`` is published on ``PersistentContainer/saves``.
///
/// For example:
/// ```swift
/// let request = BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price < %d", 10))
/// let result = try context.execute(request)
/// context.mergeChanges(from: result.notification)
/// ```
///
/// Core Data: `NSBatchDeleteRequest`.
public struct BatchDeleteRequest: Sendable, Hashable, CustomStringConvertible {
    /// The entity whose objects are deleted.
    public var entityName: String
    /// The condition the objects must meet; `nil` deletes every object of the entity.
    public var predicate: FetchPredicate?

    /// A request to delete the objects of the named entity that match `predicate`.
    public init(entityName: String, predicate: FetchPredicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// A request to delete the objects of `type`'s entity that match `predicate`.
    public init<Object: ManagedObject>(_ type: Object.Type, predicate: FetchPredicate? = nil) {
        self.init(entityName: type.entityName, predicate: predicate)
    }

    /// A request to delete the objects of a fetch request's entity that match its predicate.
    /// Its sort descriptors, limit, offset and `includesPendingChanges` do not apply: a batch
    /// request reads the committed store.
    ///
    /// Core Data: `NSBatchDeleteRequest(fetchRequest:)`.
    public init<Result: ManagedObject>(fetchRequest: FetchRequest<Result>) {
        self.init(entityName: fetchRequest.entityName ?? Result.entityName, predicate: fetchRequest.predicate)
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        "BatchDeleteRequest(entity: \(entityName)\(predicate.map { ", predicate: \($0)" } ?? ""))"
    }
}
