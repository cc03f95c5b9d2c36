import Foundation
import ObjectGraph
import ObjectGraphPostgres
import ObjectGraphTesting
import Testing

/// An entity without relationships and with a uniqueness constraint, emptied in bulk.
final class BulkItem: ManagedObject {
    @Attribute var code: Int64 = 0
    @Attribute var name = ""

    override class var uniquenessConstraints: [[String]] { [["code"]] }
}

/// Another entity of the same model, which must survive every delete of `BulkItem`s.
final class BulkNote: ManagedObject {
    @Attribute var text = ""
}

/// A delete of every object of an entity (a `BatchDeleteRequest` without a predicate, and
/// `deleteAll` without unsaved changes): one step in the coordinator, one small record in the
/// binary store, and the same results as deleting each object.
@Suite struct DeleteAllInOneStepTests {
    static let model = try! ManagedObjectModel(BulkItem.self, BulkNote.self)

    private static func fill(_ context: ManagedContext, items: Int, notes: [String] = ["a", "b", "ü 🍎"]) throws {
        for index in 0..<items {
            let item = BulkItem(context: context)
            item.code = Int64(index)
            item.name = "item \(index)"
        }
        for text in notes { BulkNote(context: context).text = text }
        try context.save()
        context.reset()
    }

    /// A store of the same kind on the same medium: the same instance in memory, a new store
    /// object on the same file otherwise.
    private static func reopened(_ store: any PersistentStore, kind: StoreKind) -> any PersistentStore {
        switch kind {
        case .inMemory, .discard: store
        case .jsonFile: JSONFileStore(url: (store as! JSONFileStore).url)
        case .binaryFile: BinaryFileStore(url: (store as! BinaryFileStore).url)
        case .sqlite: SQLiteStore(url: (store as! SQLiteStore).url)
        case .postgres:
            (store as? PostgresStore).map { PostgresStore(configuration: $0.configuration, schema: $0.schema) } ?? store
        }
    }

    private static func fileSize(_ store: any PersistentStore) -> Int? {
        let url = (store as? BinaryFileStore)?.url ?? (store as? JSONFileStore)?.url
        return url.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int }
    }

    // MARK: - Every store, with relaunch

    @Test(arguments: StoreKind.allCases, [0, 1, 100_000])
    func batchDeleteEmptiesTheEntityDurably(kind: StoreKind, count: Int) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: Self.model, store: store)
            let context = container.newContext()
            try Self.fill(context, items: count)
            let before = Self.fileSize(store)
            let result = try context.execute(BatchDeleteRequest(BulkItem.self))
            #expect(result.count == count)
            #expect(result.deletedObjectIDs.map(\.key) == (0..<count).map { Int64($0 + 1) })
            #expect(result.notification.deletedObjectIDs.count == count)
            #expect(result.notification.insertedObjectIDs.isEmpty && result.notification.updatedObjectIDs.isEmpty)
            #expect(result.notification.sequenceNumber == (count == 0 ? 0 : 2))
            #expect(container.committedSnapshot().count(ofEntity: "BulkItem") == 0)
            #expect(container.committedSnapshot().count(ofEntity: "BulkNote") == 3)
            #expect(try context.count(for: BulkItem.fetchRequest()) == 0)
            if kind == .binaryFile, count > 0, let before, let after = Self.fileSize(store) {
                // One small record (or a compaction that shrank the file), not one per object.
                #expect(after != before && after <= before + 64, "file went from \(before) to \(after) bytes")
            }
        }
        let container = try PersistentContainer(model: Self.model, store: Self.reopened(store, kind: kind))
        let context = container.newContext()
        #expect(try context.count(for: BulkItem.fetchRequest()) == 0)
        let notes = try context.fetch(BulkNote.fetchRequest()).map(\.text)
        #expect(notes == (kind.persists ? ["a", "b", "ü 🍎"] : []))
        // Keys are never reused, and the emptied uniqueness index lets the old codes come back.
        let again = BulkItem(context: context)
        again.code = 0
        try context.save()
        #expect(again.objectID.key == (kind.persists ? Int64(count + 1) : 1))
    }

    /// Keys missing here and there (an emptied chunk of rows, single holes, the last key) are
    /// left out of the result: full chunks are listed without reading their rows, the others row
    /// by row.
    @Test(arguments: [StoreKind.inMemory, .binaryFile])
    func deleteAllAfterHolesListsExactlyTheRemainingObjects(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: Self.model, store: store)
            let context = container.newContext()
            try Self.fill(context, items: 2000)
            // Chunks of 512 rows: keys 1...512 with holes, 513...1024 all deleted (codes 512..<1024),
            // 1025...1536 with a hole, 1537...2000 whole.
            try context.execute(
                BatchDeleteRequest(BulkItem.self, predicate: .init(format: "code >= 512 AND code < 1024")))
            try context.execute(
                BatchDeleteRequest(BulkItem.self, predicate: .init(format: "code IN %@", [0, 5, 1499])))
            let expected = (1...2000).map { Int64($0) }.filter {
                !(513...1024).contains($0) && ![1, 6, 1500].contains($0)
            }
            let result = try context.execute(BatchDeleteRequest(BulkItem.self))
            #expect(result.deletedObjectIDs.map(\.key) == expected)
            #expect(result.deletedObjectIDs.allSatisfy { $0.entityName == "BulkItem" })
            #expect(result.notification.deletedObjectIDs == Set(result.deletedObjectIDs))
            #expect(try context.count(for: BulkItem.fetchRequest()) == 0)
        }
        let reopened = try PersistentContainer(model: Self.model, store: Self.reopened(store, kind: kind))
        #expect(try reopened.newContext().count(for: BulkItem.fetchRequest()) == 0)
        #expect(try reopened.newContext().count(for: BulkNote.fetchRequest()) == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func deleteAllThenInsertInTheNextSave(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: Self.model, store: store)
            let context = container.newContext()
            try Self.fill(context, items: 5)
            #expect(try context.deleteAll(BulkItem.self) == 5)
            for code in [3, 4] {
                let item = BulkItem(context: context)
                item.code = Int64(code)  // the codes of deleted objects: no uniqueness conflict
                item.name = "new \(code)"
            }
            try context.save()
            #expect(try context.fetch(BulkItem.fetchRequest()).map(\.name) == ["new 3", "new 4"])
        }
        guard kind.persists else { return }
        let container = try PersistentContainer(model: Self.model, store: Self.reopened(store, kind: kind))
        let items = try container.newContext().fetch(BulkItem.fetchRequest())
        #expect(items.map(\.name) == ["new 3", "new 4"])
        #expect(items.map(\.objectID.key) == [6, 7], "keys of deleted objects are not reused")
        #expect(try container.newContext().count(for: BulkNote.fetchRequest()) == 3)
    }

    /// A change set that empties an entity and inserts into it in the same save: the store
    /// applies the emptying first.
    @Test(arguments: [StoreKind.inMemory, .jsonFile, .binaryFile])
    func emptyingAndInsertingInOneChangeSet(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: Self.model, store: store)
            try Self.fill(container.newContext(), items: 3)
        }
        var snapshot = try store.load(model: Self.model)
        let deleted = (1...3).map { ObjectID(entityName: "BulkItem", key: $0) }
        var next = StoreSnapshot(model: Self.model)
        snapshot.forEachRecord(ofEntity: "BulkNote") { try! next.insert($0) }
        next.reserveKeys(ofEntity: "BulkNote", below: snapshot.nextKey(ofEntity: "BulkNote"))
        let fresh = StoreRecord(
            objectID: ObjectID(entityName: "BulkItem", key: 4), version: 1, values: [.int(1), .string("fresh")])
        try next.insert(fresh)
        try store.save(
            StoreChangeSet(
                inserted: [fresh], updated: [], deleted: deleted, emptiedEntityNames: ["BulkItem"], snapshot: next))
        store.close()
        snapshot = try Self.reopened(store, kind: kind).load(model: Self.model)
        var items: [StoreRecord] = []
        snapshot.forEachRecord(ofEntity: "BulkItem") { items.append($0) }
        #expect(items == [fresh])
        #expect(snapshot.count(ofEntity: "BulkNote") == 3)
    }

    // MARK: - The binary file

    /// Appends a save after the delete-all frame, then cuts the file inside that save and, in a
    /// second round, inside the delete-all frame itself: each cut loses exactly the torn frame.
    @Test func aTornTailAfterOrInsideTheDeleteAllFrameLosesOnlyThatFrame() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("torn.ogdb")
        let sizes: (filled: Int, emptied: Int, inserted: Int)
        do {
            let container = try PersistentContainer(model: Self.model, store: BinaryFileStore(url: url))
            let context = container.newContext()
            try Self.fill(context, items: 10)
            let filled = try Self.size(url)
            try context.execute(BatchDeleteRequest(BulkItem.self))
            let emptied = try Self.size(url)
            BulkItem(context: context).code = 42
            try context.save()
            sizes = (filled, emptied, try Self.size(url))
        }
        #expect(sizes.emptied - sizes.filled < 32, "the delete-all frame is small")
        let original = try Data(contentsOf: url)

        try original.prefix(sizes.inserted - 3).write(to: url)
        do {
            let context = try PersistentContainer(model: Self.model, store: BinaryFileStore(url: url)).newContext()
            #expect(try context.count(for: BulkItem.fetchRequest()) == 0)
            #expect(try context.count(for: BulkNote.fetchRequest()) == 3)
        }
        #expect(try Self.size(url) == sizes.emptied, "the torn frame is cut off")

        try original.prefix(sizes.emptied - 1).write(to: url)
        let context = try PersistentContainer(model: Self.model, store: BinaryFileStore(url: url)).newContext()
        #expect(try context.fetch(BulkItem.fetchRequest()).map(\.code) == Array(0..<10))
        #expect(try context.count(for: BulkNote.fetchRequest()) == 3)
    }

    private static func size(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
    }

    // MARK: - Delete rules across entities

    @Test(arguments: [StoreKind.inMemory, .binaryFile])
    func denyRefusesTheWholeBatch(kind: StoreKind) throws {
        let container = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore())
        let context = container.newContext()
        let owners = [Owner(context: context), Owner(context: context)]
        owners[1].basket = Basket(context: context)  // Owner.basket: deny while it has one
        try context.save()
        let before = container.committedSnapshot().jsonDocument()
        let error = #expect(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(Owner.self))
        }
        #expect(error?.code == .validation)
        #expect(container.committedSnapshot().jsonDocument() == before)
        #expect(throws: PersistenceError.self) { try context.deleteAll(Owner.self) }
        #expect(container.committedSnapshot().jsonDocument() == before)
        #expect(owners.allSatisfy { !$0.isDeleted } && !context.hasChanges)
    }

    @Test(arguments: [StoreKind.inMemory, .jsonFile, .binaryFile])
    func cascadeAndNullifyReachOtherEntities(kind: StoreKind) throws {
        let store = kind.makeStore()
        var tagID = ObjectID(entityName: "Tag", key: 0)
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            let basket = Basket(context: context)
            let owner = Owner(context: context)
            owner.basket = basket
            let tag = Tag(context: context)
            tagID = tag.objectID
            let inBasket = (0..<3).map { makeFruit(context, "in \($0)") }
            for fruit in inBasket {
                fruit.basket = basket
                fruit.tags = [tag]
            }
            let loose = makeFruit(context, "loose")
            loose.tags = [tag]
            try context.save()

            // Basket.fruits cascades: the basket's fruits go, and Tag.fruits (their to-many
            // inverse) shrinks; Basket.owner nullifies the owner's to-one inverse.
            let result = try context.execute(BatchDeleteRequest(Basket.self))
            #expect(result.deletedObjectIDs == [basket.objectID])
            #expect(result.notification.deletedObjectIDs == Set([basket.objectID] + inBasket.map(\.objectID)))
            #expect(result.notification.updatedObjectIDs == [tag.objectID, owner.objectID])
            context.mergeChanges(from: result.notification)
            #expect(basket.isDeleted && inBasket.allSatisfy { $0.isDeleted } && !loose.isDeleted)
            #expect(tag.fruits.map(\.objectID) == [loose.objectID])
            #expect(owner.basket == nil)

            // Fruit.basket and Fruit.tags nullify: a basket and the tag lose their fruits.
            let kept = Basket(context: context)
            kept.label = "kept"
            kept.fruits = [loose]
            owner.basket = kept
            try context.save()
            #expect(try context.deleteAll(Fruit.self) == 1)
            #expect(loose.isDeleted)
            #expect(tag.fruits.isEmpty && kept.fruits.isEmpty)
            #expect(!context.hasChanges)
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: Self.reopened(store, kind: kind))
        let context = container.newContext()
        #expect(try context.count(for: Fruit.fetchRequest()) == 0)
        let tag = try #require(try context.existingObject(with: tagID) as? Tag)
        #expect(tag.fruits.isEmpty)
        let baskets = try context.fetch(Basket.fetchRequest())
        #expect(baskets.map(\.label) == ["kept"])
        #expect(baskets.first?.fruits.isEmpty == true && baskets.first?.owner != nil)
        #expect(container.committedSnapshot().danglingReferences().isEmpty)
    }

    @Test func deleteAllOfEveryEntityUsesOneCommit() throws {
        let store = RecordingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let basket = Basket(context: context)
        makeFruit(context, "apple").basket = basket
        Owner(context: context).basket = basket
        try context.save()
        #expect(try context.deleteAll() == 3)
        #expect(store.changeSets.count == 2)
        #expect(store.changeSets.last?.emptiedEntityNames == ["Fruit", "Basket", "Owner"])
        #expect(store.changeSets.last?.deleted.count == 3)
        #expect(container.committedSnapshot().count == 0)
        #expect(basket.isDeleted)
    }

    // MARK: - Failure leaves everything unchanged

    @Test func aFailedStoreSaveChangesNothing() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer(model: Self.model, store: store)
        let context = container.newContext()
        try Self.fill(context, items: 20)
        let items = try context.fetch(BulkItem.fetchRequest())
        let observer = container.newContext()
        let seen = try observer.fetch(BulkItem.fetchRequest())

        store.failNextSave()
        #expect(throws: FaultInjectingStore.Fault.diskFull) { try context.execute(BatchDeleteRequest(BulkItem.self)) }
        store.failNextSave()
        #expect(throws: FaultInjectingStore.Fault.diskFull) { try context.deleteAll(BulkItem.self) }
        #expect(container.committedSnapshot().count(ofEntity: "BulkItem") == 20)
        #expect(!context.hasChanges && items.allSatisfy { !$0.isDeleted })
        observer.refresh(seen[0], mergeChanges: false)
        #expect(!seen[0].isDeleted)
        #expect(try container.newContext().count(for: BulkItem.fetchRequest()) == 20)

        // The unique index was not emptied by the failed commits.
        let duplicate = BulkItem(context: context)
        duplicate.code = 3
        #expect(throws: PersistenceError.self) { try context.save() }
        context.rollback()
        #expect(try context.deleteAll(BulkItem.self) == 20)
        #expect(items.allSatisfy { $0.isDeleted })
    }

    // MARK: - Notifications

    @Test func otherContextsMergeTheDeletion() async throws {
        let container = try PersistentContainer(model: Self.model, storeDescription: .inMemory)
        let writer = container.newContext()
        try Self.fill(writer, items: 50)
        let saves = container.saves
        let reader = container.newContext()
        let held = try reader.fetch(BulkItem.fetchRequest())
        let note = try reader.fetch(BulkNote.fetchRequest())[0]
        let automatic = container.newContext()
        automatic.automaticallyMergesChanges = true
        let watched = try automatic.fetch(BulkItem.fetchRequest())
        let edited = held[0]
        edited.name = "edited, unsaved"

        let result = try writer.execute(BatchDeleteRequest(BulkItem.self))
        #expect(held.allSatisfy { !$0.isDeleted }, "a context changes only when it merges")
        reader.mergeChanges(from: result.notification)
        #expect(held.allSatisfy { $0.isDeleted } && !note.isDeleted)
        #expect(result.notification.touches(entityNamed: "BulkItem"))
        #expect(!result.notification.touches(entityNamed: "BulkNote"))
        _ = try automatic.count(for: BulkNote.fetchRequest())
        #expect(watched.allSatisfy { $0.isDeleted })

        for await notification in saves {
            #expect(notification == result.notification)
            #expect(notification.deletedObjectIDs == Set(result.deletedObjectIDs))
            break
        }
    }
}
