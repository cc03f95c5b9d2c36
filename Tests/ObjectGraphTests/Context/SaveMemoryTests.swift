import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An object whose `willSave()` deletes another pending insert (so that the insertion order
/// stops being exact while a save runs) or inserts a new one.
final class Draft: ManagedObject {
    @Attribute var title = ""
    /// Not stored: the pending insert this one's `willSave()` deletes.
    var discards: Draft?

    /// Not stored: whether `willSave()` inserts a new draft, and the draft it inserted.
    var spawnsOnSave = false
    var spawned: Draft?

    override func willSave() {
        if let discards, discards.isInserted { managedObjectContext?.delete(discards) }
        if spawnsOnSave, spawned == nil, let context = managedObjectContext {
            let draft = Draft(context: context)
            draft.title = "spawned"
            spawned = draft
        }
    }
}

/// Five attributes, as the benchmarks' loaded `Item`.
final class FiveAttributes: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Attribute var weight = 0.0
    @Attribute var createdAt = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var uuid = UUID()
}

@Suite struct SaveMemoryTests {
    // MARK: - Inserts without per-object records

    @Test func failedSaveOfManyInsertsKeepsEveryInsertPending() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let fruits = (0..<1_000).map { makeFruit(context, "fruit \($0)", price: Int64($0)) }
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.save() }

        #expect(context.insertedObjects == Set(fruits))
        #expect(context.hasChanges)
        #expect(fruits.allSatisfy { $0.isInserted && $0.managedObjectContext === context })
        let pending = try context.fetch(Fruit.fetchRequest())
        #expect(pending.map(\.objectID) == fruits.map(\.objectID))

        try context.save()
        #expect(context.insertedObjects.isEmpty)
        let stored = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(stored.map(\.name) == fruits.map(\.name))
        #expect(stored.map(\.price) == (0..<1_000).map { Int64($0) })
    }

    @Test func failedSaveAfterAnInsertWasDeletedKeepsTheOthersPending() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let fruits = (0..<10).map { makeFruit(context, "fruit \($0)") }
        context.delete(fruits[3])  // the insertion order is no longer exact
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.save() }

        let kept = fruits.enumerated().filter { $0.offset != 3 }.map(\.element)
        #expect(context.insertedObjects == Set(kept))
        #expect(kept.allSatisfy { $0.isInserted && $0.managedObjectContext === context })
        #expect(fruits[3].managedObjectContext == nil && !fruits[3].isInserted)
        try context.save()
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 9)
    }

    @Test func failedSaveBringsBackAnInsertThatWillSaveDeleted() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: ManagedObjectModel(Draft.self), store: store)
        let context = container.newContext()
        let kept = Draft(context: context)
        let discarded = Draft(context: context)
        kept.title = "kept"
        discarded.title = "discarded"
        kept.discards = discarded
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.save() }

        #expect(context.insertedObjects == [kept, discarded])
        #expect(discarded.isInserted && !discarded.isDeleted && discarded.managedObjectContext === context)
        #expect(kept.discards === discarded)
        #expect(try context.fetch(Draft.fetchRequest()).map(\.title) == ["kept", "discarded"])

        try context.save()
        #expect(try container.newContext().fetch(Draft.fetchRequest()).map(\.title) == ["kept"])
    }

    @Test func failedSaveDropsAnInsertThatWillSaveMade() throws {
        let store = FailingStore()
        let container = try PersistentContainer(model: ManagedObjectModel(Draft.self), store: store)
        let context = container.newContext()
        let draft = Draft(context: context)
        draft.title = "draft"
        draft.spawnsOnSave = true
        store.failNext()
        #expect(throws: FailingStore.DiskFull.self) { try context.save() }

        let spawned = try #require(draft.spawned)
        #expect(spawned.managedObjectContext == nil && !spawned.isInserted)
        #expect(context.insertedObjects == [draft] && context.registeredObjects == [draft])
        #expect(try context.fetch(Draft.fetchRequest()).map(\.title) == ["draft"])

        draft.spawned = nil
        try context.save()
        #expect(try container.newContext().fetch(Draft.fetchRequest()).map(\.title).sorted() == ["draft", "spawned"])
    }

    // MARK: - Object layout

    @Test func observedObjectKeepsItsCommittedValues() throws {
        let (container, context) = try makeContext()
        makeFruit(context, "Apple", price: 100)
        try context.save()
        let other = container.newContext()
        let apple = try #require(try other.fetch(Fruit.fetchRequest()).first)
        let counter = track { _ = apple.price }  // gives the object its registrar
        #expect(!apple.hasChanges)

        apple.price = 120
        #expect(counter.value == 1)
        #expect(apple.isUpdated && other.updatedObjects == [apple])
        #expect(apple.committedValues(forKeys: ["price"])["price"] as? Int64 == 100)
        other.rollback()
        #expect(apple.price == 100 && !apple.hasChanges)

        apple.price = 130
        try other.save()
        #expect(apple.committedValues(forKeys: ["price"])["price"] as? Int64 == 130 && !apple.hasChanges)
    }

    @Test func objectObservedBeforeItsFirstSaveTracksItsCommittedValues() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        let counter = track { _ = apple.name }
        #expect(apple.committedValues(forKeys: ["price"]).isEmpty)
        try context.save()
        #expect(apple.committedValues(forKeys: ["price"])["price"] as? Int64 == 100)
        apple.name = "Green apple"
        #expect(counter.value == 1 && apple.isUpdated)
        #expect(apple.changedValues().keys.sorted() == ["name"])
    }

    #if canImport(Glibc)
        @Test func objectOfFiveAttributesTakesNinetySixBytes() throws {
            let (_, context) = try makeContext(model: ManagedObjectModel(FiveAttributes.self))
            // The allocation's usable size: 88 bytes for a 96-byte malloc chunk (the base object's
            // fields end at 65 bytes, each wrapper adds 2); 104 when the fields took 100. Glibc's
            // module does not export `malloc.h`, so the function is looked up by name. malloc may
            // hand out a larger free chunk it cannot split (while other tests run in parallel), so
            // the smallest of several objects' sizes is the object's own.
            typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
            let symbol = try #require(dlsym(nil, "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
            let objects = (0..<64).map { _ in FiveAttributes(context: context) }
            let smallest = objects.map { usableSize(Unmanaged.passUnretained($0).toOpaque()) }.min()
            #expect(try #require(smallest) <= 88)
        }
    #endif
}
