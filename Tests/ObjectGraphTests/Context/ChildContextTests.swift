import Foundation
import ObjectGraph
import Testing

@Suite struct ChildContextTests {
    /// A container on `store` with one saved basket holding an apple (price 100) and a pear.
    private func makeSavedBasket(_ store: InMemoryStore = InMemoryStore()) throws -> (
        PersistentContainer, ManagedContext, Basket, Fruit, Fruit
    ) {
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let basket = Basket(context: context)
        basket.label = "Kitchen"
        let apple = makeFruit(context, "apple")
        let pear = makeFruit(context, "pear", price: 50)
        basket.fruits = [apple, pear]
        try context.save()
        return (container, context, basket, apple, pear)
    }

    /// What the store holds, read by a fresh context: fruit names with prices, sorted.
    private func storedFruits(_ container: PersistentContainer) throws -> [String] {
        let fresh = container.newContext()
        return try fresh.fetch(Fruit.fetchRequest()).map { "\($0.name):\($0.price)" }.sorted()
    }

    private func child<T: ManagedObject>(_ object: T, in context: ManagedContext) throws -> T {
        try #require(try context.existingObject(with: object.objectID) as? T)
    }

    // MARK: - Edit sheet with Cancel

    @Test func cancelledEditLeavesTheParentUntouched() throws {
        let store = InMemoryStore()
        let (container, context, _, apple, _) = try makeSavedBasket(store)
        let discards: [(ManagedContext) -> Void] = [{ $0.rollback() }, { $0.reset() }, { _ in }]
        for discard in discards {
            let sheet = context.newChildContext(name: "sheet")
            #expect(sheet.parentContext === context && context.parentContext == nil)
            let draft = try child(apple, in: sheet)
            #expect(draft !== apple && draft.objectID == apple.objectID)
            draft.name = "Äpfel 🍎"
            draft.price = 1
            #expect(sheet.hasChanges && !context.hasChanges)
            discard(sheet)
            #expect(apple.name == "apple" && apple.price == 100 && !context.hasChanges)
        }
        #expect(try storedFruits(container) == ["apple:100", "pear:50"])
    }

    @Test func doneEditReachesTheParentThenTheStore() throws {
        let store = InMemoryStore()
        try editAndSave(store)
        let fresh = try PersistentContainer(model: TestModels.fruits, store: store).newContext()
        #expect(
            try fresh.fetch(Fruit.fetchRequest()).map { "\($0.name):\($0.price)" }.sorted() == [
                "pear:50", "Äpfel 🍎:100",
            ])
    }

    /// The edit sheet's Done: returns once every container and context on `store` is gone.
    private func editAndSave(_ store: InMemoryStore) throws {
        let (container, context, _, apple, _) = try makeSavedBasket(store)
        let sheet = context.newChildContext()
        let draft = try child(apple, in: sheet)
        draft.name = "Äpfel 🍎"
        try sheet.save()
        #expect(!sheet.hasChanges && !draft.isUpdated && draft.name == "Äpfel 🍎")
        #expect(apple.name == "Äpfel 🍎" && apple.isUpdated)
        #expect(context.hasChanges && context.updatedObjects == [apple])
        #expect(try storedFruits(container) == ["apple:100", "pear:50"])
        try context.save()
        #expect(!context.hasChanges)
        #expect(try storedFruits(container) == ["pear:50", "Äpfel 🍎:100"])
    }

    @Test func savingAChildWithoutChangesDoesNothing() throws {
        let (_, context, basket, apple, pear) = try makeSavedBasket()
        let sheet = context.newChildContext()
        _ = try child(apple, in: sheet)
        try sheet.save()
        #expect(!context.hasChanges && context.registeredObjects == [basket, apple, pear])
    }

    // MARK: - What a child sees

    @Test func childSeesTheParentsUnsavedState() throws {
        let (_, context, basket, apple, pear) = try makeSavedBasket()
        let cherry = makeFruit(context, "cherry", price: 10)
        cherry.basket = basket
        apple.price = 120
        context.delete(pear)
        let sheet = context.newChildContext()
        let names = try sheet.fetch(Fruit.fetchRequest()).map(\.name).sorted()
        #expect(names == ["apple", "cherry"])
        #expect(try sheet.count(for: Fruit.fetchRequest()) == 2)
        var expensive = Fruit.fetchRequest()
        expensive.predicate = try FetchPredicate(format: "price > 110 AND basket.label == %@", "Kitchen")
        #expect(try sheet.fetch(expensive).map(\.name) == ["apple"])
        let cherryInChild = try child(cherry, in: sheet)
        #expect(!cherryInChild.isInserted && cherryInChild.basket?.label == "Kitchen")
        #expect(try child(basket, in: sheet).fruits.map(\.name).sorted() == ["apple", "cherry"])
        #expect(throws: PersistenceError.self) { try sheet.existingObject(with: pear.objectID) }
        #expect(sheet.object(with: pear.objectID).isDeleted)

        // The child's own changes lie on top; without pending changes only the parent's count.
        _ = makeFruit(sheet, "damson")
        sheet.delete(cherryInChild)
        #expect(try sheet.fetch(Fruit.fetchRequest()).map(\.name).sorted() == ["apple", "damson"])
        #expect(try sheet.count(for: Fruit.fetchRequest()) == 2)
        var committedOnly = Fruit.fetchRequest()
        committedOnly.includesPendingChanges = false
        #expect(try sheet.fetch(committedOnly).map(\.name).sorted() == ["apple", "cherry"])
        #expect(try sheet.count(for: committedOnly) == 2)
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name).sorted() == ["apple", "cherry"])
    }

    // MARK: - Inserts, deletes and relationships

    @Test func insertsReachTheParentOnceWithTheirIDsAndInverses() throws {
        let store = InMemoryStore()
        let (container, context, basket, _, _) = try makeSavedBasket(store)
        let sheet = context.newChildContext()
        let fig = makeFruit(sheet, "fig", price: 7)
        fig.basket = try child(basket, in: sheet)
        try sheet.save()
        #expect(!fig.isInserted && fig.managedObjectContext === sheet)
        let parentFig = try #require(context.registeredObject(for: fig.objectID) as? Fruit)
        #expect(parentFig.isInserted && parentFig.name == "fig" && parentFig.basket === basket)
        #expect(basket.fruits.map(\.name).sorted() == ["apple", "fig", "pear"])
        #expect(context.insertedObjects == [parentFig] && context.hasChanges)
        try context.save()
        #expect(try storedFruits(container) == ["apple:100", "fig:7", "pear:50"])
    }

    @Test func pushedInsertIsAwokenOnceAndValidatedByTheChild() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sheet = context.newChildContext()
        let journaled = Journaled(context: sheet)
        journaled.title = "invalid"
        #expect(throws: PersistenceError.self) { try sheet.save() }
        #expect(!context.hasChanges && journaled.isInserted)
        journaled.title = "draft"
        try sheet.save()
        #expect(journaled.events == ["awakeFromInsert", "willSave", "willSave", "didSave"])
        let pushed = try #require(context.registeredObject(for: journaled.objectID) as? Journaled)
        #expect(pushed.events.isEmpty && pushed.title == "draft")  // not awoken a second time
        try context.save()
        #expect(pushed.events == ["willSave", "didSave"])
    }

    @Test func childDeleteCascadesIntoTheParent() throws {
        let store = InMemoryStore()
        let (container, context, basket, apple, pear) = try makeSavedBasket(store)
        let sheet = context.newChildContext()
        sheet.delete(try child(basket, in: sheet))
        #expect(sheet.deletedObjects.count == 3)
        try sheet.save()
        #expect(basket.isDeleted && apple.isDeleted && pear.isDeleted)
        #expect(context.deletedObjects.count == 3)
        try context.save()
        #expect(try storedFruits(container).isEmpty)
    }

    @Test func childDeleteNullifiesInverseInTheParent() throws {
        let (_, context, basket, apple, _) = try makeSavedBasket()
        let sheet = context.newChildContext()
        sheet.delete(try child(apple, in: sheet))
        try sheet.save()
        #expect(apple.isDeleted && basket.fruits.map(\.name) == ["pear"] && basket.isUpdated)
        try context.save()
        #expect(try context.fetch(Fruit.fetchRequest()).map(\.name) == ["pear"])
    }

    @Test func denyRuleRefusesTheChildSaveAndChangesNothing() throws {
        let (_, context, basket, _, _) = try makeSavedBasket()
        let owner = Owner(context: context)
        owner.name = "Ada"
        owner.basket = basket
        try context.save()
        let sheet = context.newChildContext()
        let ownerInChild = try child(owner, in: sheet)
        sheet.delete(ownerInChild)
        #expect(throws: PersistenceError.self) { try sheet.save() }
        #expect(ownerInChild.isDeleted && sheet.deletedObjects == [ownerInChild])
        #expect(!context.hasChanges && !owner.isDeleted && basket.owner === owner)
    }

    @Test func movingAFruitAcrossBasketsKeepsInversesInEveryLevel() throws {
        let (_, context, kitchen, apple, _) = try makeSavedBasket()
        let cellar = Basket(context: context)  // an unsaved insert of the parent
        cellar.label = "Cellar"
        let sheet = context.newChildContext()
        let nested = sheet.newChildContext()
        let nestedApple = try child(apple, in: nested)
        nestedApple.basket = try child(cellar, in: nested)
        try nested.save()
        #expect(try child(kitchen, in: sheet).fruits.map(\.name) == ["pear"])
        #expect(try child(cellar, in: sheet).fruits.map(\.name) == ["apple"])
        #expect(kitchen.fruits.map(\.name).sorted() == ["apple", "pear"])  // parent not reached yet
        try sheet.save()
        #expect(kitchen.fruits.map(\.name) == ["pear"] && apple.basket === cellar && cellar.isInserted)
        try context.save()
        let fresh = context.newChildContext()
        #expect(try child(cellar, in: fresh).fruits.map(\.name) == ["apple"])
    }

    // MARK: - Two levels

    @Test func grandchildSaveAndDiscard() throws {
        let store = InMemoryStore()
        let (container, context, _, apple, pear) = try makeSavedBasket(store)
        let sheet = context.newChildContext()
        let nested = sheet.newChildContext()
        #expect(nested.parentContext === sheet)
        try child(apple, in: nested).price = 1
        makeFruit(nested, "kiwi", price: 3)
        nested.delete(try child(pear, in: nested))
        try nested.save()
        #expect(sheet.hasChanges && !context.hasChanges && !nested.hasChanges)
        #expect(
            try sheet.fetch(Fruit.fetchRequest()).map { "\($0.name):\($0.price)" }.sorted() == ["apple:1", "kiwi:3"])

        // A discarded grandchild leaves both levels as they were.
        let discarded = sheet.newChildContext()
        try child(apple, in: discarded).price = 999
        discarded.rollback()
        try sheet.save()
        #expect(context.hasChanges && apple.price == 1 && pear.isDeleted)
        #expect(try storedFruits(container) == ["apple:100", "pear:50"])
        try context.save()
        #expect(try storedFruits(container) == ["apple:1", "kiwi:3"])
    }

    @Test func grandchildSeesUnsavedInsertsOfBothAncestors() throws {
        let (_, context, _, _, _) = try makeSavedBasket()
        let plum = makeFruit(context, "plum")
        let sheet = context.newChildContext()
        let quince = makeFruit(sheet, "quince")
        let nested = sheet.newChildContext()
        #expect(try nested.fetch(Fruit.fetchRequest()).map(\.name).sorted() == ["apple", "pear", "plum", "quince"])
        #expect(try nested.count(for: Fruit.fetchRequest()) == 4)
        nested.delete(try child(plum, in: nested))
        nested.delete(try #require(try nested.fetch(Fruit.fetchRequest()).first { $0.name == "pear" }))
        #expect(try nested.count(for: Fruit.fetchRequest()) == 2)
        nested.rollback()
        #expect(try nested.count(for: Fruit.fetchRequest()) == 4)
        try child(plum, in: nested).name = "plum 2"
        try child(quince, in: nested).name = "quince 2"
        try nested.save()
        #expect(quince.name == "quince 2" && quince.isInserted && plum.name == "plum")
        try sheet.save()
        #expect(plum.name == "plum 2" && plum.isInserted)
        #expect(context.insertedObjects.map { ($0 as? Fruit)?.name ?? "" }.sorted() == ["plum 2", "quince 2"])
    }

    // MARK: - Validation and constraints

    @Test func validationFailureLeavesChildAndParentUnchanged() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let ada = makePerson(context, "Ada", "Lovelace")
        try context.save()
        let sheet = context.newChildContext()
        let draft = try child(ada, in: sheet)
        draft.age = 200
        let newcomer = makePerson(sheet, "forbidden", "x")
        newcomer.name = "forbidden"
        let error = try #require(throws: PersistenceError.self) { try sheet.save() }
        #expect(error.code == .validation && error.detailedErrors.count == 2)
        #expect(draft.age == 200 && draft.isUpdated && newcomer.isInserted && sheet.hasChanges)
        #expect(!context.hasChanges && ada.age == 0 && context.registeredObjects.count == 1)
        draft.age = 37
        sheet.delete(newcomer)
        try sheet.save()
        #expect(ada.age == 37 && context.hasChanges)
    }

    @Test func uniquenessIsCheckedWhenTheParentSaves() throws {
        for policy in [MergePolicy.error, .objectTrump] {
            let store = InMemoryStore()
            let container = try makeIntegrityContainer(store)
            let context = container.newContext()
            context.mergePolicy = policy
            let ada = makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
            try context.save()
            let sheet = context.newChildContext()
            let twin = makePerson(sheet, "Augusta", "King", email: "ada@example.com")
            twin.age = 36
            try sheet.save()  // the child does not check uniqueness
            #expect(context.insertedObjects.count == 1)
            if policy == .error {
                #expect(throws: PersistenceError.self) { try context.save() }
                #expect(context.insertedObjects.count == 1 && context.hasChanges)
            } else {
                try context.save()
                #expect(!context.hasChanges && ada.age == 36 && ada.firstName == "Augusta")
            }
            let stored = try container.newContext().fetch(Person.fetchRequest())
            #expect(stored.count == 1 && stored[0].age == (policy == .error ? 0 : 36))
        }
    }

    // MARK: - Conflicts with the parent

    @Test func parentChangeAfterTheChildReadIsResolvedByTheChildsPolicy() throws {
        // (policy, parent's name, parent's price, whether the save succeeds)
        let expected: [(MergePolicy, String, Int64, Bool)] = [
            (.error, "parent", 100, false),
            (.objectTrump, "child", 1, true),
            (.storeTrump, "parent", 100, true),
            (.mergeByPropertyObjectTrump, "child", 1, true),
            (.mergeByPropertyStoreTrump, "parent", 1, true),
        ]
        for (policy, name, price, succeeds) in expected {
            let (_, context, _, apple, _) = try makeSavedBasket()
            let sheet = context.newChildContext()
            sheet.mergePolicy = policy
            let draft = try child(apple, in: sheet)
            draft.name = "child"
            draft.price = 1
            apple.name = "parent"  // after the child read it
            if succeeds {
                try sheet.save()
                #expect(!sheet.hasChanges && draft.name == name && draft.price == price, "\(policy)")
            } else {
                let error = try #require(throws: PersistenceError.self) { try sheet.save() }
                #expect(error.code == .conflict && error.objectID == apple.objectID)
                #expect(draft.name == "child" && sheet.hasChanges)
            }
            #expect(apple.name == name && apple.price == price, "\(policy)")
        }
    }

    @Test func objectTheParentDeletedStaysDeleted() throws {
        for policy in MergePolicy.allCases {
            let (_, context, _, apple, _) = try makeSavedBasket()
            let sheet = context.newChildContext()
            sheet.mergePolicy = policy
            let draft = try child(apple, in: sheet)
            draft.price = 5
            context.delete(apple)
            if policy == .error {
                #expect(throws: PersistenceError.self) { try sheet.save() }
                #expect(draft.isUpdated)
            } else {
                try sheet.save()
                #expect(draft.isDeleted && !sheet.hasChanges, "\(policy)")
            }
            #expect(apple.isDeleted && context.deletedObjects == [apple] && apple.price == 100)
        }
    }

    @Test func childDeleteOfAnObjectTheParentChanged() throws {
        for policy in MergePolicy.allCases {
            let (_, context, _, _, pear) = try makeSavedBasket()
            let sheet = context.newChildContext()
            sheet.mergePolicy = policy
            let draft = try child(pear, in: sheet)
            sheet.delete(draft)
            pear.price = 55
            let kept = policy == .storeTrump || policy == .mergeByPropertyStoreTrump
            if policy == .error {
                #expect(throws: PersistenceError.self) { try sheet.save() }
                #expect(draft.isDeleted && !pear.isDeleted)
            } else {
                try sheet.save()
                #expect(pear.isDeleted == !kept, "\(policy)")
                #expect(draft.isDeleted == !kept && (kept ? draft.price == 55 : true), "\(policy)")
            }
        }
    }

    // MARK: - Parent rollback and merging

    @Test func parentRollbackDiscardsWhatTheChildPushed() throws {
        let store = InMemoryStore()
        let (container, context, basket, apple, _) = try makeSavedBasket(store)
        let sheet = context.newChildContext()
        try child(apple, in: sheet).price = 1
        makeFruit(sheet, "fig").basket = try child(basket, in: sheet)
        try sheet.save()
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges && apple.price == 100 && basket.fruits.count == 2)
        #expect(try context.fetch(Fruit.fetchRequest()).count == 2)
        try context.save()
        #expect(try storedFruits(container) == ["apple:100", "pear:50"])
        // A new child reads the rolled-back state.
        #expect(try context.newChildContext().fetch(Fruit.fetchRequest()).count == 2)
    }

    @Test func childOfAnAutomaticallyMergingContext() throws {
        let store = InMemoryStore()
        let (container, _, _, apple, pear) = try makeSavedBasket(store)
        let viewContext = container.newContext()
        viewContext.automaticallyMergesChanges = true
        let viewApple = try child(apple, in: viewContext)
        let sheet = viewContext.newChildContext()
        let draft = try child(viewApple, in: sheet)
        draft.name = "edited in the sheet"

        let background = container.newContext()
        try child(apple, in: background).price = 300
        background.delete(try child(pear, in: background))
        makeFruit(background, "lime", price: 9)
        try background.save()

        // The child's fetch merges the parent's inbox first, and sees the background save.
        let seen = try sheet.fetch(Fruit.fetchRequest()).map { "\($0.name):\($0.price)" }.sorted()
        #expect(seen == ["edited in the sheet:100", "lime:9"])
        #expect(viewApple.price == 300)
        sheet.refresh(draft, mergeChanges: true)
        #expect(draft.price == 300 && draft.name == "edited in the sheet")
        try sheet.save()
        try viewContext.save()
        #expect(try storedFruits(container) == ["edited in the sheet:300", "lime:9"])
    }

    // MARK: - More edges

    @Test func childDeleteOfTheParentsUnsavedInsertLeavesNoTrace() throws {
        let (_, context, basket, _, _) = try makeSavedBasket()
        let plum = makeFruit(context, "plum")
        plum.basket = basket
        let sheet = context.newChildContext()
        let plumInChild = try child(plum, in: sheet)
        #expect(!plumInChild.isInserted && plumInChild.basket != nil)
        sheet.delete(plumInChild)
        try sheet.save()
        #expect(context.insertedObjects.isEmpty && context.registeredObject(for: plum.objectID) == nil)
        #expect(basket.fruits.map(\.name).sorted() == ["apple", "pear"])
        #expect(!context.hasChanges)
    }

    @Test func refreshInAChildReadsTheParentsCurrentValues() throws {
        let (_, context, _, apple, _) = try makeSavedBasket()
        let sheet = context.newChildContext()
        let draft = try child(apple, in: sheet)
        draft.name = "draft"
        apple.price = 7
        sheet.refresh(draft, mergeChanges: true)
        #expect(draft.name == "draft" && draft.price == 7 && draft.isUpdated)
        try sheet.save()  // no conflict: the child read the parent's latest values
        #expect(apple.name == "draft" && apple.price == 7)
        draft.name = "again"
        sheet.refresh(draft, mergeChanges: false)
        #expect(draft.name == "draft" && !sheet.hasChanges)
    }

    @Test func parentMergingFromElsewhereIsAConflictOnlyUnderTheErrorPolicy() throws {
        for policy in [MergePolicy.error, .mergeByPropertyObjectTrump] {
            let (container, context, _, apple, _) = try makeSavedBasket()
            context.automaticallyMergesChanges = true
            let sheet = context.newChildContext()
            sheet.mergePolicy = policy
            try child(apple, in: sheet).name = "renamed"
            let background = container.newContext()
            try child(apple, in: background).price = 300
            try background.save()
            if policy == .error {
                let error = try #require(throws: PersistenceError.self) { try sheet.save() }
                #expect(error.code == .conflict && error.message.contains("parent context changed it"))
                #expect(apple.price == 300 && apple.name == "apple" && !context.hasChanges)
            } else {
                try sheet.save()
                #expect(apple.price == 300 && apple.name == "renamed" && context.updatedObjects == [apple])
            }
        }
    }

    @Test func manyInsertsPushedAtOnce() throws {
        let store = InMemoryStore()
        let (container, context, basket, _, _) = try makeSavedBasket(store)
        let sheet = context.newChildContext()
        let basketInChild = try child(basket, in: sheet)
        for index in 0..<2_000 { makeFruit(sheet, "fruit \(index)", price: Int64(index)).basket = basketInChild }
        try sheet.save()
        #expect(context.insertedObjects.count == 2_000 && basket.fruits.count == 2_002)
        var cheap = Fruit.fetchRequest()
        cheap.predicate = try FetchPredicate(format: "price < 10")
        #expect(try context.newChildContext().count(for: cheap) == 10)
        try context.save()
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 2_002)
    }
}
