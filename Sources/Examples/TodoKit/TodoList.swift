import Foundation
import ObjectGraph

/// The to-do list: what the app shows and the changes it makes, over a context it is given.
///
/// The list has no store of its own and finds none on its own: hand it a context (or a container)
/// from the app, and an in-memory one from a test.
///
/// For example:
/// ```swift
/// let container = try PersistentContainer(model: try TodoItem.makeModel(), storeDescription: .inMemory)
/// let list = TodoList(context: container.newContext())
/// try list.add(title: "Buy milk", detail: "2 litres")
/// try list.markDone(number: 1)
/// ```
///
/// Items are numbered from 1 in the order they were created, as ``items`` returns them; a number
/// names an item until an item before it is removed.
///
/// Every change is saved at once. **A failed save is rolled back:** the list calls the context's
/// `rollback()`, so the context, like the store, is left exactly as it was before the call, and
/// the error is thrown as ``TodoError/saveFailed(_:)``. The list therefore expects a context of
/// its own: unsaved changes that other code made in the same context would be rolled back too.
public final class TodoList {
    /// The context the list reads and changes.
    public let context: ManagedContext

    /// A list over `context`.
    public init(context: ManagedContext) {
        self.context = context
    }

    /// A list over a new context of `container`.
    public convenience init(container: PersistentContainer) {
        self.init(context: container.newContext())
    }

    /// Every item, oldest first (in creation order; items created at the same instant in the
    /// order they were inserted).
    ///
    /// - Throws: ``TodoError/loadFailed(_:)`` when the items cannot be fetched.
    /// - Complexity: O(*n* log *n*) for *n* items.
    public var items: [TodoItem] {
        get throws(TodoError) {
            do {
                return try context.fetch(TodoItem.fetchRequest()).sorted { first, second in
                    if first.createdAt != second.createdAt { return first.createdAt < second.createdAt }
                    return first.objectID.key < second.objectID.key
                }
            } catch {
                throw .loadFailed(error)
            }
        }
    }

    /// The item shown at `number` (1-based).
    ///
    /// - Throws: ``TodoError/noSuchItem(_:)`` when no item has that number.
    public func item(number: Int) throws(TodoError) -> TodoItem {
        let items = try items
        guard items.indices.contains(number - 1) else { throw .noSuchItem(number) }
        return items[number - 1]
    }

    /// Adds an item at the end of the list and saves it.
    ///
    /// The title and detail are trimmed of surrounding white space.
    ///
    /// - Throws: ``TodoError/emptyTitle``; ``TodoError/saveFailed(_:)``, after which the item is
    ///   not in the list.
    @discardableResult
    public func add(title: String, detail: String = "") throws(TodoError) -> TodoItem {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw .emptyTitle }
        let item = TodoItem(context: context)
        item.title = title
        item.detail = detail.trimmingCharacters(in: .whitespacesAndNewlines)
        try save()
        return item
    }

    /// Marks the item at `number` as done (or, with `done` false, as not done) and saves it.
    /// Marking an item as it already is saves nothing.
    ///
    /// - Throws: ``TodoError/noSuchItem(_:)``; ``TodoError/saveFailed(_:)``, after which the item
    ///   is as it was.
    @discardableResult
    public func markDone(number: Int, _ done: Bool = true) throws(TodoError) -> TodoItem {
        let item = try item(number: number)
        item.isDone = done
        try save()
        return item
    }

    /// Removes the item at `number` and saves; the items after it move up by one.
    ///
    /// - Returns: the removed item's title.
    /// - Throws: ``TodoError/noSuchItem(_:)``; ``TodoError/saveFailed(_:)``, after which the item
    ///   is still in the list.
    @discardableResult
    public func remove(number: Int) throws(TodoError) -> String {
        let item = try item(number: number)
        let title = item.title
        context.delete(item)
        try save()
        return title
    }

    /// Saves the context's changes, or rolls them back and throws.
    private func save() throws(TodoError) {
        do {
            try context.saveIfNeeded()
        } catch {
            context.rollback()
            throw .saveFailed(error)
        }
    }
}

extension TodoList {
    /// Opens the list on a new container over `store` (the app's store, or a test double).
    ///
    /// - Throws: ``TodoError/loadFailed(_:)`` when the store cannot be opened or read.
    public static func open(store: any PersistentStore) throws(TodoError) -> TodoList {
        do {
            return TodoList(container: try PersistentContainer(model: try TodoItem.makeModel(), store: store))
        } catch {
            throw .loadFailed(error)
        }
    }

    /// Opens the list on the store a description names.
    ///
    /// - Throws: ``TodoError/loadFailed(_:)`` when the store cannot be opened or read.
    public static func open(_ description: StoreDescription) throws(TodoError) -> TodoList {
        try open(store: description.makeStore())
    }
}
