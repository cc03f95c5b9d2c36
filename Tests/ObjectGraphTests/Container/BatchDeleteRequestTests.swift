import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

final class BatchParent: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "parent") var children: Set<BatchChild>
    @Relationship(inverse: "team", minCount: 2) var members: Set<BatchMember>
}

final class BatchChild: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "children", isOptional: false) var parent: BatchParent?
}

final class BatchMember: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "members") var team: BatchParent?
}

@Suite struct BatchDeleteRequestTests {
    private func prices(_ container: PersistentContainer) throws -> [Int64] {
        try container.newContext().fetch(Fruit.fetchRequest()).map(\.price)
    }

    // MARK: - Every store

    @Test(arguments: StoreKind.allCases)
    func deletesTheMatchesDurablyInOneCommit(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            for index in 0..<10 { makeFruit(context, "f\(index)", price: Int64(index)) }
            try context.save()
            let request = BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price < %d", 4))
            let result = try context.execute(request)
            #expect(result.count == 4)
            #expect(result.deletedObjectIDs.map(\.key) == [1, 2, 3, 4])
            #expect(result.notification.deletedObjectIDs == Set(result.deletedObjectIDs))
            #expect(result.notification.insertedObjectIDs.isEmpty && result.notification.updatedObjectIDs.isEmpty)
            #expect(result.notification.sequenceNumber == 2)
            #expect(try prices(container) == [4, 5, 6, 7, 8, 9])
            #expect(container.committedSnapshot().count(ofEntity: "Fruit") == 6)
        }
        // Relaunch: the file (or the in-memory store) holds the result.
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        #expect(try prices(container) == (kind.persists ? [4, 5, 6, 7, 8, 9] : []))
        if kind.persists {
            let next = makeFruit(container.newContext(), "new")
            #expect(next.objectID.key == 11, "keys of deleted objects are not reused")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func cascadeNullifyAndDenyBehaveAsOnSave(kind: StoreKind) throws {
        let store = kind.makeStore()
        var ids: (kept: ObjectID, gone: ObjectID, owner: ObjectID, tag: ObjectID, fruits: [ObjectID]) = (
            ObjectID(entityName: "Basket", key: 0), ObjectID(entityName: "Basket", key: 0),
            ObjectID(entityName: "Owner", key: 0), ObjectID(entityName: "Tag", key: 0), []
        )
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            let (kept, gone) = (Basket(context: context), Basket(context: context))
            kept.label = "kept"
            gone.label = "gone"
            let owner = Owner(context: context)
            owner.basket = gone
            let tag = Tag(context: context)
            for index in 0..<4 {
                let fruit = makeFruit(context, "f\(index)")
                fruit.basket = index < 3 ? gone : kept
                fruit.tags = [tag]
            }
            try context.save()
            ids = (kept.objectID, gone.objectID, owner.objectID, tag.objectID, [])

            // deny: the owner still has a basket, so nothing is deleted.
            let denied = #expect(throws: PersistenceError.self) {
                try context.execute(BatchDeleteRequest(Owner.self))
            }
            #expect(denied?.code == .validation)
            #expect(denied?.objectID == owner.objectID && denied?.key == "basket")
            #expect(container.committedSnapshot().count == 8)

            // cascade to the fruits, nullify the owner's basket and the tag's fruits.
            let request = BatchDeleteRequest(Basket.self, predicate: try FetchPredicate(format: "label == %@", "gone"))
            let result = try context.execute(request)
            #expect(result.deletedObjectIDs == [gone.objectID])
            let note = result.notification
            #expect(note.deletedObjectIDs.count == 4 && note.deletedObjectIDs.contains(gone.objectID))
            #expect(note.updatedObjectIDs == [owner.objectID, tag.objectID])
            ids.fruits = note.deletedObjectIDs.filter { $0.entityName == "Fruit" }.sorted { $0.key < $1.key }
            #expect(ids.fruits.count == 3)

            // Now the owner has no basket: deny lets it go.
            #expect(try context.execute(BatchDeleteRequest(Owner.self)).deletedObjectIDs == [owner.objectID])
        }
        guard kind.persists else { return }
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let reader = container.newContext()
        #expect(try reader.fetch(Basket.fetchRequest()).map(\.objectID) == [ids.kept])
        let tag = try #require(try reader.existingObject(with: ids.tag) as? Tag)
        #expect(tag.fruits.map(\.name) == ["f3"])
        #expect(try reader.count(for: Owner.fetchRequest()) == 0)
        #expect(container.committedSnapshot().danglingReferences().isEmpty)
    }

    @Test func aPredicateThroughARelationshipSelects() throws {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        basket.label = "Kitchen"
        for index in 0..<6 { makeFruit(context, "f\(index)").basket = index.isMultiple(of: 2) ? basket : nil }
        try context.save()
        let request = BatchDeleteRequest(
            fetchRequest: FetchRequest<Fruit>(predicate: try FetchPredicate(format: "basket.label == %@", "Kitchen")))
        let result = try context.execute(request)
        #expect(result.count == 3)
        #expect(result.notification.updatedObjectIDs == [basket.objectID])
        #expect(try container.newContext().fetch(Fruit.fetchRequest()).map(\.name) == ["f1", "f3", "f5"])
        let reader = container.newContext()
        let stored = try #require(try reader.existingObject(with: basket.objectID) as? Basket)
        #expect(stored.label == "Kitchen" && stored.fruits.isEmpty)
        #expect(container.committedSnapshot().danglingReferences().isEmpty, "nullify emptied the basket's fruits")
    }

    // MARK: - Failures change nothing

    @Test func aFailedStoreSaveChangesNothing() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let basket = Basket(context: context)
        for index in 0..<5 { makeFruit(context, "f\(index)", price: Int64(index)).basket = basket }
        try context.save()
        let before = container.committedSnapshot().jsonDocument()
        store.failNextSave()
        let error = #expect(throws: FaultInjectingStore.Fault.self) {
            try context.execute(BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price > 1")))
        }
        #expect(error == .diskFull)
        #expect(container.committedSnapshot().jsonDocument() == before)
        #expect(try prices(container) == [0, 1, 2, 3, 4])
        // The same request succeeds once the store does.
        #expect(
            try context.execute(BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price > 1")))
                .count == 3)
        #expect(try prices(container) == [0, 1])
    }

    @Test func nullifyMayNotBreakRequiredRelationshipsOrMinimumCounts() throws {
        let model = try ManagedObjectModel(BatchParent.self, BatchChild.self, BatchMember.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let parent = BatchParent(context: context)
        let child = BatchChild(context: context)
        child.parent = parent
        let members = (0..<2).map { index in
            let member = BatchMember(context: context)
            member.name = "m\(index)"
            member.team = parent
            return member
        }
        try context.save()
        let before = container.committedSnapshot().jsonDocument()

        let orphaning = #expect(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(BatchParent.self))
        }
        #expect(orphaning?.code == .validation)
        #expect(orphaning?.objectID == child.objectID && orphaning?.key == "parent")

        let shrinking = #expect(throws: PersistenceError.self) {
            try context.execute(
                BatchDeleteRequest(BatchMember.self, predicate: try FetchPredicate(format: "name == 'm0'")))
        }
        #expect(shrinking?.code == .validation)
        #expect(shrinking?.objectID == parent.objectID && shrinking?.key == "members")
        #expect(container.committedSnapshot().jsonDocument() == before)

        // Both members: a minimum count makes the relationship required, as at save.
        let emptying = #expect(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(BatchMember.self))
        }
        #expect(emptying?.code == .validation && emptying?.key == "members")
        // The child first, then the parent: the members stay, without a team.
        try context.execute(BatchDeleteRequest(BatchChild.self))
        #expect(try context.execute(BatchDeleteRequest(BatchParent.self)).count == 1)
        let stored = try container.newContext().fetch(BatchMember.fetchRequest())
        #expect(stored.map(\.objectID) == members.map(\.objectID) && stored.allSatisfy { $0.team == nil })
    }

    @Test func anUnknownEntityOrBadPredicateIsATypedError() throws {
        let (_, context) = try makeContext()
        makeFruit(context, "apple")
        try context.save()
        let unknown = #expect(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(entityName: "Nope"))
        }
        #expect(unknown?.code == .unknownEntity && unknown?.entityName == "Nope")
        let badKey = #expect(throws: PersistenceError.self) {
            try context.execute(
                BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "colour == 'red'")))
        }
        #expect(badKey?.code == .unknownKey)
        let badType = #expect(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price == 'x'")))
        }
        #expect(badType?.code == .typeMismatch)
        #expect(try context.count(for: Fruit.fetchRequest()) == 1)
    }

    @Test func nothingMatchedCommitsNothing() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        #expect(try context.execute(BatchDeleteRequest(Fruit.self)).deletedObjectIDs.isEmpty)
        makeFruit(context, "apple", price: 1)
        try context.save()
        let attempts = store.saveAttempts
        store.failEverySave()
        let result = try context.execute(
            BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price > 5")))
        #expect(result.deletedObjectIDs.isEmpty && result.count == 0)
        #expect(result.notification.sequenceNumber == 0 && result.notification.deletedObjectIDs.isEmpty)
        #expect(store.saveAttempts == attempts, "the store is not asked to save an empty batch")
    }

    // MARK: - Contexts

    @Test func theExecutingContextChangesOnlyWhenItMerges() throws {
        let (container, context) = try makeContext()
        let fruits = (0..<3).map { makeFruit(context, "f\($0)", price: Int64($0)) }
        try context.save()
        let result = try context.execute(
            BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price < 2")))
        #expect(!fruits[0].isDeleted && !context.hasChanges, "like Core Data, not changed in place")
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["f2"], "fetches read the store")
        context.mergeChanges(from: result.notification)
        #expect(fruits[0].isDeleted && fruits[1].isDeleted && !fruits[2].isDeleted)
        #expect(!context.hasChanges)
        _ = container
    }

    @Test func otherContextsWithPendingEditsMergeOrConflict() throws {
        let (container, context) = try makeContext()
        for index in 0..<3 { makeFruit(context, "f\(index)", price: Int64(index)) }
        try context.save()
        let editor = container.newContext()
        let edited = try editor.fetch(Fruit.fetchRequest())
        edited[0].name = "edited, then deleted elsewhere"
        edited[2].name = "edited, kept"
        let automatic = container.newContext()
        automatic.automaticallyMergesChanges = true
        let watched = try automatic.fetch(Fruit.fetchRequest())

        let result = try context.execute(
            BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price < 2")))

        // Saving an edit of a deleted object conflicts under the default policy.
        let conflict = #expect(throws: PersistenceError.self) { try editor.save() }
        #expect(conflict?.code == .conflict)
        editor.mergeChanges(from: result.notification)
        #expect(edited[0].isDeleted && edited[1].isDeleted)
        #expect(edited[2].name == "edited, kept")
        try editor.save()
        #expect(try container.newContext().fetch(Fruit.fetchRequest()).map(\.name) == ["edited, kept"])

        // A context that merges automatically does so at its next operation.
        #expect(try automatic.count(for: Fruit.fetchRequest()) == 1)
        #expect(watched[0].isDeleted && watched[1].isDeleted && !watched[2].isDeleted)
    }

    @Test func theNotificationIsPublishedOnSaves() async throws {
        let (container, context) = try makeContext()
        var saves = container.saves.makeAsyncIterator()
        for index in 0..<3 { makeFruit(context, "f\(index)", price: Int64(index)) }
        try context.save()
        let result = try context.execute(
            BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price == 1")))
        let first = try #require(await saves.next())
        #expect(first.insertedObjectIDs.count == 3)
        let second = try #require(await saves.next())
        #expect(second == result.notification)
        #expect(second.origin != context.identifier, "so that the executing context can merge it too")
    }

    // MARK: - Scale

    @Test func deletesAHundredThousandRows() throws {
        let (container, context) = try makeContext()
        for index in 0..<100_000 { makeFruit(context, "f\(index)", price: Int64(index % 100)) }
        try context.save()
        context.reset()
        let half = try context.execute(
            BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: "price >= 50")))
        #expect(half.count == 50_000)
        #expect(try context.count(for: Fruit.fetchRequest()) == 50_000)
        #expect(try context.count(for: FetchRequest<Fruit>(predicate: try FetchPredicate(format: "price >= 50"))) == 0)
        let rest = try context.execute(BatchDeleteRequest(Fruit.self))
        #expect(rest.count == 50_000)
        #expect(Set(rest.deletedObjectIDs).isDisjoint(with: half.deletedObjectIDs))
        #expect(container.committedSnapshot().count == 0)
        #expect(context.registeredObjects.isEmpty)
    }
}
