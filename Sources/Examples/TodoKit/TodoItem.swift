import Foundation
import ObjectGraph

/// One entry of the to-do list.
///
/// Every property has a default, so `TodoItem(context: context)` is a valid, empty item: each new
/// item gets its own `id` and the moment it was created. `id` is unique in the store: saving a
/// second item with the same `id` is a `PersistenceError.Code.conflict`.
///
/// For example:
/// ```swift
/// let item = TodoItem(context: context)
/// item.title = "Buy milk"
/// try context.save()
/// ```
public final class TodoItem: ManagedObject {
    /// The item's stable identity, independent of where the store keeps it.
    @Attribute public var id = UUID()
    /// What to do, in a few words.
    @Attribute public var title = ""
    /// More about it; empty when there is nothing more to say.
    @Attribute public var detail = ""
    /// Whether it is done.
    @Attribute public var isDone = false
    /// When the item was created; the list is shown in this order.
    @Attribute public var createdAt = Date()

    /// No two items share an `id`.
    public override class var uniquenessConstraints: [[String]] { [["id"]] }

    /// The model of the to-do app: its one entity.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` (never, for this class).
    public static func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(TodoItem.self)
    }
}
