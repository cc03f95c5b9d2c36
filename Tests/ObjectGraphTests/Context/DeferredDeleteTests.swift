import Foundation
import ObjectGraph
import Synchronization
import Testing

/// A crate whose items (and, through them, their parts) are deleted with it; tags are shared
/// between crates (a many-to-many cascade); a shelf loses the deleted items (nullify).
final class DeferredCrate: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "crate", deleteRule: .cascade) var items: Set<DeferredItem>
    @Relationship(inverse: "crates", deleteRule: .cascade) var tags: Set<DeferredTag>
}

final class DeferredItem: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Attribute var name = ""
    @Relationship(inverse: "items") var crate: DeferredCrate?
    @Relationship(inverse: "item", deleteRule: .cascade) var parts: Set<DeferredPart>
    @Relationship(inverse: "items") var shelf: DeferredShelf?
}

final class DeferredPart: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Attribute var serial: Int64 = 0
    @Relationship(inverse: "parts") var item: DeferredItem?
}

final class DeferredTag: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Attribute var word = ""
    @Relationship(inverse: "tags") var crates: Set<DeferredCrate>
}

final class DeferredShelf: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "shelf") var items: Set<DeferredItem>
}

/// Counts the instances a context makes of it (through `awakeFromFetch()`, which a deferred
/// delete never calls); used by one test only, so that parallel tests do not share the count.
final class CountedBox: ManagedObject {
    static let made = Mutex(0)
    override class var deletesWithoutInstances: Bool { true }
    @Attribute var size: Int64 = 0
    @Relationship(inverse: "boxes") var pallet: CountedPallet?
    @Relationship(inverse: "boxes") var label: CountedLabel?
    override func awakeFromFetch() { Self.made.withLock { $0 += 1 } }
}

final class CountedPallet: ManagedObject {
    @Relationship(inverse: "pallet", deleteRule: .cascade) var boxes: Set<CountedBox>
}

final class CountedLabel: ManagedObject {
    @Relationship(inverse: "label") var boxes: Set<CountedBox>
}

/// An item that may not go while its receipt exists (`deny`): deleted as an object, so that the
/// save checks the rule.
final class DeniedItem: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Relationship(inverse: "items") var bin: DeniedBin?
    @Relationship(inverse: "item", deleteRule: .deny) var receipt: DeniedReceipt?
}

final class DeniedBin: ManagedObject {
    @Relationship(inverse: "bin", deleteRule: .cascade) var items: Set<DeniedItem>
}

final class DeniedReceipt: ManagedObject {
    @Relationship(inverse: "receipt") var item: DeniedItem?
}

/// A cascade deletes saved objects the context does not hold, of classes that declare
/// `deletesWithoutInstances`, as rows: everything a caller sees must be as when they are objects
/// (the reference: the same delete in a context with an undo manager, which always makes them).
@Suite struct DeferredDeleteTests {
    static let model = try! ManagedObjectModel(
        DeferredCrate.self, DeferredItem.self, DeferredPart.self, DeferredTag.self, DeferredShelf.self)

    /// Two saved crates of three items with two parts each, on one shelf, sharing a tag (and one
    /// tag each); returns a fresh context that holds nothing.
    private func filled(_ kind: StoreKind = .inMemory) throws -> (PersistentContainer, ManagedContext) {
        let container = try PersistentContainer(model: Self.model, store: kind.makeStore())
        let filler = container.newContext()
        let shelf = DeferredShelf(context: filler)
        shelf.name = "top"
        let shared = DeferredTag(context: filler)
        shared.word = "shared"
        for label in ["a", "b"] {
            let crate = DeferredCrate(context: filler)
            crate.label = label
            let own = DeferredTag(context: filler)
            own.word = label
            crate.tags = [shared, own]
            for number in 0..<3 {
                let item = DeferredItem(context: filler)
                item.name = "\(label)\(number)"
                item.crate = crate
                item.shelf = shelf
                for serial in 0..<2 {
                    let part = DeferredPart(context: filler)
                    part.serial = Int64(serial)
                    part.item = item
                }
            }
        }
        try filler.save()
        return (container, container.newContext())
    }

    /// Deletes every crate of `context` (fetched first, so only the crates are held).
    private func deleteCrates(in context: ManagedContext) throws {
        for crate in try context.fetch(DeferredCrate.fetchRequest()) { context.delete(crate) }
    }

    /// A description of the context's pending changes that does not depend on instances.
    private func pending(_ context: ManagedContext) -> [String] {
        func line(_ object: ManagedObject) -> String {
            let keys = object.entity.attributes.map(\.name) + object.entity.relationships.map(\.name)
            let values = keys.sorted().map { key in
                let value = try? object.value(forKey: key)
                if let related = value as? Set<ManagedObject> {
                    return "\(key)=\(related.map(\.objectID.description).sorted())"
                }
                if let related = value as? ManagedObject { return "\(key)=\(related.objectID)" }
                return "\(key)=\(String(describing: value))"
            }
            return
                "\(object.objectID) deleted=\(object.isDeleted) updated=\(object.isUpdated) \(values.joined(separator: " "))"
        }
        return ["deleted"] + context.deletedObjects.map(line).sorted() + ["updated"]
            + context.updatedObjects.map(line).sorted() + ["hasChanges=\(context.hasChanges)"]
    }

    /// The same delete in a context with an undo manager: every cascaded object an instance.
    private func reference(_ kind: StoreKind = .inMemory) throws -> (PersistentContainer, ManagedContext) {
        let (container, context) = try filled(kind)
        context.undoManager = ContextUndoManager()
        try deleteCrates(in: context)
        return (container, context)
    }

    // MARK: - Before the save

    @Test func aCascadeMakesNoInstancesUntilTheContextIsAsked() throws {
        let model = try ManagedObjectModel(CountedPallet.self, CountedBox.self, CountedLabel.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let filler = container.newContext()
        let pallet = CountedPallet(context: filler)
        let label = CountedLabel(context: filler)
        for size in 0..<5 {
            let box = CountedBox(context: filler)
            box.size = Int64(size)
            box.pallet = pallet
            // Each box's delete nullifies the label's side: a lookup that must not make the
            // boxes deleted so far objects.
            box.label = label
        }
        try filler.save()
        let context = container.newContext()
        let before = CountedBox.made.withLock { $0 }
        context.delete(try #require(try context.fetch(CountedPallet.fetchRequest()).first))
        #expect(CountedBox.made.withLock { $0 } == before)
        #expect(context.hasChanges)
        #expect(context.deletedObjects.count == 6)
        #expect(CountedBox.made.withLock { $0 } == before + 5)
        let held = try #require(try context.fetch(CountedLabel.fetchRequest()).first)
        #expect(held.boxes.isEmpty && context.updatedObjects == [held])
    }

    @Test func deletedAndUpdatedObjectsAreThoseOfAnObjectCascade() throws {
        let (_, context) = try filled()
        try deleteCrates(in: context)
        let (_, expected) = try reference()
        #expect(pending(context) == pending(expected))
        // 2 crates, 6 items, 12 parts, 3 tags.
        #expect(context.deletedObjects.count == 23)
    }

    @Test func fetchesCountsAndLookupsSeeTheDeletes() throws {
        let (container, context) = try filled()
        let itemID = try #require(try container.newContext().fetch(DeferredItem.fetchRequest()).first).objectID
        try deleteCrates(in: context)
        #expect(try context.count(for: DeferredPart.fetchRequest()) == 0)
        try deleteCratesAgainIsHarmless(context)
        #expect(try context.fetch(DeferredItem.fetchRequest()).isEmpty)
        let item = try context.existingObject(with: itemID)
        #expect(item.isDeleted)
        #expect(context.registeredObject(for: itemID) === item)
        var all = DeferredItem.fetchRequest()
        all.includesPendingChanges = false
        #expect(try context.fetch(all).allSatisfy(\.isDeleted))
    }

    private func deleteCratesAgainIsHarmless(_ context: ManagedContext) throws {
        for crate in context.deletedObjects.compactMap({ $0 as? DeferredCrate }) { context.delete(crate) }
        #expect(context.deletedObjects.count == 23)
    }

    @Test func aLookupByIDBeforeTheSaveFindsTheDeletedObject() throws {
        let (container, context) = try filled()
        let partIDs = try container.newContext().fetch(DeferredPart.fetchRequest()).map(\.objectID)
        try deleteCrates(in: context)
        let part = context.object(with: try #require(partIDs.first))
        #expect(part.isDeleted)
        #expect((part as? DeferredPart)?.item == nil)
    }

    // MARK: - Saving

    @Test(arguments: StoreKind.allCases)
    func theSaveDeletesEveryRowAndNotifiesEveryObject(kind: StoreKind) async throws {
        let (container, context) = try filled(kind)
        var saves = container.saves.makeAsyncIterator()
        try deleteCrates(in: context)
        try context.save()
        let notification = try #require(await saves.next())
        let (referenceContainer, expected) = try reference(kind)
        var referenceSaves = referenceContainer.saves.makeAsyncIterator()
        try expected.save()
        let referenceNotification = try #require(await referenceSaves.next())
        #expect(notification.deletedObjectIDs == referenceNotification.deletedObjectIDs)
        #expect(notification.updatedObjectIDs == referenceNotification.updatedObjectIDs)
        #expect(notification.deletedObjectIDs.count == 23)
        #expect(!context.hasChanges && context.deletedObjects.isEmpty)
        let other = container.newContext()
        #expect(try other.count(for: DeferredItem.fetchRequest()) == 0)
        #expect(try other.count(for: DeferredPart.fetchRequest()) == 0)
        let shelf = try #require(try other.fetch(DeferredShelf.fetchRequest()).first)
        #expect(shelf.items.isEmpty)
    }

    @Test func theHistoryListsEveryDeletedObjectInTheOrderOfAnObjectCascade() throws {
        func history(deferring: Bool) throws -> [String] {
            let store = SQLiteStore(url: TemporaryDirectory.make().appendingPathComponent("crates.sqlite"))
            let container = try PersistentContainer(model: Self.model, store: store)
            let filler = container.newContext()
            let crate = DeferredCrate(context: filler)
            for number in 0..<3 {
                let item = DeferredItem(context: filler)
                item.name = "item \(number)"
                item.crate = crate
                DeferredPart(context: filler).item = item
            }
            try filler.save()
            let token = try store.currentHistoryToken()
            let context = container.newContext()
            if !deferring { context.undoManager = ContextUndoManager() }
            try deleteCrates(in: context)
            try context.save()
            return try store.fetchHistory(after: token).flatMap(\.changes).map { "\($0.objectID) \($0.changeType)" }
        }
        let deferred = try history(deferring: true)
        #expect(deferred == (try history(deferring: false)))
        #expect(deferred.count == 7)
    }

    @Test func aFailedSaveKeepsTheDeletesAndTheStore() throws {
        let (container, context) = try filled()
        try deleteCrates(in: context)
        let before = pending(context)
        let other = container.newContext()
        let item = try #require(try other.fetch(DeferredItem.fetchRequest()).first)
        item.name = "changed elsewhere"
        try other.save()
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .conflict)
        #expect(error.detailedErrors.map(\.objectID).contains(item.objectID) || error.objectID == item.objectID)
        #expect(try container.newContext().count(for: DeferredItem.fetchRequest()) == 6)
        #expect(pending(context) == before)
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try container.newContext().count(for: DeferredItem.fetchRequest()) == 0)
    }

    @Test func aFailedSaveLeavesTheDeletesDeferred() throws {
        let (container, context) = try filled()
        try deleteCrates(in: context)
        let other = container.newContext()
        let part = try #require(try other.fetch(DeferredPart.fetchRequest()).first)
        part.serial = 99
        try other.save()
        #expect(throws: PersistenceError.self) { try context.save() }
        // Still rows: a second failure, then a save with a winning policy, see them as before.
        #expect(throws: PersistenceError.self) { try context.save() }
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try container.newContext().count(for: DeferredPart.fetchRequest()) == 0)
        #expect(!context.hasChanges)
    }

    // MARK: - Rollback, undo, other contexts

    @Test func rollbackRestoresEveryObjectAndRelationship() throws {
        let (container, context) = try filled()
        let shelf = try #require(try context.fetch(DeferredShelf.fetchRequest()).first)
        try deleteCrates(in: context)
        #expect(shelf.items.isEmpty)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(shelf.items.count == 6)
        #expect(shelf.items.allSatisfy { !$0.isDeleted && $0.crate != nil && $0.parts.count == 2 })
        #expect(try context.count(for: DeferredPart.fetchRequest()) == 12)
        try context.save()
        #expect(try container.newContext().count(for: DeferredItem.fetchRequest()) == 6)
    }

    @Test func undoBringsTheCascadeBack() throws {
        let (_, context) = try filled()
        context.undoManager = ContextUndoManager()
        try deleteCrates(in: context)
        context.processPendingChanges()
        context.undoManager?.undo()
        #expect(!context.hasChanges)
        #expect(try context.count(for: DeferredItem.fetchRequest()) == 6)
    }

    @Test func anotherContextHoldingAnItemMergesTheDelete() throws {
        let (container, context) = try filled()
        let other = container.newContext()
        let item = try #require(try other.fetch(DeferredItem.fetchRequest()).first)
        other.automaticallyMergesChanges = true
        try deleteCrates(in: context)
        try context.save()
        #expect(try other.count(for: DeferredItem.fetchRequest()) == 0)
        #expect(item.isDeleted)
    }

    @Test func aFetchedResultsControllerSeesTheCascade() throws {
        let (_, context) = try filled()
        var request = DeferredPart.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "serial")]
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        #expect(controller.fetchedObjects.count == 12)
        var deletions = 0
        controller.onChange = { deletions += $0.deleted.count }
        try deleteCrates(in: context)
        context.processPendingChanges()
        #expect(controller.fetchedObjects.isEmpty)
        #expect(deletions == 12)
    }

    // MARK: - Rules that need objects

    @Test func aDenyRuleOfACascadedObjectStillRefusesTheSave() throws {
        let model = try ManagedObjectModel(DeniedBin.self, DeniedItem.self, DeniedReceipt.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let filler = container.newContext()
        let bin = DeniedBin(context: filler)
        let item = DeniedItem(context: filler)
        item.bin = bin
        DeniedReceipt(context: filler).item = item
        try filler.save()
        let context = container.newContext()
        context.delete(try #require(try context.fetch(DeniedBin.fetchRequest()).first))
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .validation)
        #expect(error.detailedErrors.contains { $0.objectID == item.objectID && $0.key == "receipt" })
        #expect(try container.newContext().count(for: DeniedItem.fetchRequest()) == 1)
    }
}
