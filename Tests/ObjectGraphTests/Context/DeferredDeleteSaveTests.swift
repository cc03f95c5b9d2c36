import Foundation
import ObjectGraph
import Testing

/// An object whose insert validation runs a caller's closure (to reach into the context while
/// a save validates).
final class ValidationProbe: ManagedObject {
    var onValidate: (ManagedContext) -> Void = { _ in }
    override func validateForInsert() throws {
        if let context = managedObjectContext { onValidate(context) }
    }
}

/// A save writes every deferred delete, whatever the validation methods do to the context's
/// deleted objects.
@Suite struct DeferredDeleteSaveTests {
    static let model = try! ManagedObjectModel(
        DeferredCrate.self, DeferredItem.self, DeferredPart.self, DeferredTag.self, DeferredShelf.self,
        ValidationProbe.self)

    @Test func aSaveWritesDeferredDeletesWhenValidationTakesBackAnotherDelete() throws {
        let container = try PersistentContainer(model: Self.model, store: InMemoryStore())
        let filler = container.newContext()
        let crate = DeferredCrate(context: filler)
        let item = DeferredItem(context: filler)
        item.crate = crate
        _ = DeferredShelf(context: filler)
        try filler.save()

        let context = container.newContext()
        let shelf = try #require(try context.fetch(DeferredShelf.fetchRequest()).first)
        // Another context deletes the shelf's row.
        let other = container.newContext()
        other.delete(try #require(try other.fetch(DeferredShelf.fetchRequest()).first))
        try other.save()

        context.delete(shelf)
        // The item is deleted as a row, without an instance.
        context.delete(try #require(try context.fetch(DeferredCrate.fetchRequest()).first))
        let probe = ValidationProbe(context: context)
        probe.onValidate = { context in
            // Makes the deferred delete an object (one more deleted object) ...
            _ = context.registeredObjects
            // ... and takes one back: the shelf is gone from the store.
            context.refresh(shelf, mergeChanges: false)
        }
        try context.save()

        let check = container.newContext()
        #expect(try check.count(for: DeferredItem.fetchRequest()) == 0)
        #expect(try check.count(for: DeferredCrate.fetchRequest()) == 0)
        #expect(!context.hasChanges)
    }
}
