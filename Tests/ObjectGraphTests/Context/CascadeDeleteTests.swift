import Foundation
import ObjectGraph
import Testing

/// A cascade unlinks each object it deletes from the deleted source without recording the
/// change as an update (the object is deleted right after); what a caller sees must not change.
@Suite struct CascadeDeleteTests {
    /// A saved basket with three saved fruits, read into a fresh context (nothing registered).
    private func savedBasket() throws -> (PersistentContainer, ManagedContext) {
        let (container, filler) = try makeContext()
        let basket = Basket(context: filler)
        basket.label = "picnic"
        for name in ["apple", "pear", "plum"] { makeFruit(filler, name).basket = basket }
        try filler.save()
        return (container, container.newContext())
    }

    // MARK: - Before the save

    @Test func cascadedObjectsAreDeletedAndUnlinkedButNotUpdated() throws {
        let (_, context) = try savedBasket()
        let basket = try #require(try context.fetch(Basket.fetchRequest()).first)
        context.delete(basket)
        let fruits = context.deletedObjects.compactMap { $0 as? Fruit }
        #expect(fruits.count == 3)
        #expect(fruits.allSatisfy { $0.isDeleted && $0.basket == nil && !$0.isUpdated })
        #expect(context.updatedObjects.isEmpty)
        #expect(context.deletedObjects.count == 4)
    }

    // MARK: - Rollback

    @Test func rollbackRestoresTheRelationshipsOfCascadedObjects() throws {
        let (_, context) = try savedBasket()
        let basket = try #require(try context.fetch(Basket.fetchRequest()).first)
        context.delete(basket)
        let fruits = context.deletedObjects.compactMap { $0 as? Fruit }
        context.rollback()
        #expect(!context.hasChanges)
        #expect(fruits.allSatisfy { !$0.isDeleted && $0.basket === basket })
        #expect(basket.fruits.count == 3)
        #expect(try context.count(for: Fruit.fetchRequest()) == 3)
    }

    @Test func rollbackRestoresCascadedObjectsThatWereAlsoEdited() throws {
        let (_, context) = try savedBasket()
        let basket = try #require(try context.fetch(Basket.fetchRequest()).first)
        let apple = try #require(basket.fruits.first { $0.name == "apple" })
        apple.price = 7
        context.delete(basket)
        #expect(apple.isDeleted && apple.basket == nil && apple.price == 7)
        context.rollback()
        #expect(!apple.isDeleted && apple.basket === basket && apple.price == 100)
        #expect(!context.hasChanges)
    }

    // MARK: - Saving

    @Test func savingDeletesEveryCascadedRow() throws {
        let (container, context) = try savedBasket()
        let basket = try #require(try context.fetch(Basket.fetchRequest()).first)
        context.delete(basket)
        try context.save()
        let other = container.newContext()
        #expect(try other.count(for: Fruit.fetchRequest()) == 0)
        #expect(try other.count(for: Basket.fetchRequest()) == 0)
    }

    @Test func anUndoManagerSeesTheCascadeAsBefore() throws {
        let (_, context) = try savedBasket()
        context.undoManager = ContextUndoManager()
        let basket = try #require(try context.fetch(Basket.fetchRequest()).first)
        context.delete(basket)
        context.processPendingChanges()
        context.undoManager?.undo()
        #expect(basket.fruits.count == 3)
        #expect(basket.fruits.allSatisfy { !$0.isDeleted && $0.basket === basket })
    }
}
