import Foundation
import ObjectGraph
import Testing

@Suite struct InheritanceTests {
    /// A zoo: a keeper with Rex (Dog), Whiskers (Mammal) and Tweety (Bird), and a second keeper
    /// with Fido (Dog); saved.
    private func makeZoo(store: any PersistentStore = InMemoryStore()) throws -> (PersistentContainer, ManagedContext) {
        let container = try PersistentContainer(model: InheritanceModels.zoo, store: store)
        let context = container.newContext()
        let alice = Keeper(context: context)
        alice.name = "Alice"
        let bob = Keeper(context: context)
        bob.name = "Bob"
        func add<T: Animal>(_ type: T.Type, _ name: String, legs: Int64, to keeper: Keeper) -> T {
            let animal = T(context: context)
            animal.name = name
            animal.legs = legs
            animal.keeper = keeper
            return animal
        }
        let rex = add(Dog.self, "Rex", legs: 4, to: alice)
        let collar = Collar(context: context)
        collar.color = "red"
        rex.collar = collar
        add(Mammal.self, "Whiskers", legs: 4, to: alice).fur = "grey"
        add(Bird.self, "Tweety", legs: 2, to: alice).canFly = true
        add(Dog.self, "Fido", legs: 3, to: bob).barks = false
        try context.save()
        return (container, context)
    }

    private func names(_ animals: [some Animal]) -> [String] { animals.map(\.name) }

    // MARK: - Fetch and count

    @Test func fetchOfAParentReturnsEverySubEntitysObjects() throws {
        let (container, _) = try makeZoo()
        let context = container.newContext()
        let animals = try context.fetch(FetchRequest<Animal>(sortDescriptors: [SortDescriptor(key: "name")]))
        #expect(names(animals) == ["Fido", "Rex", "Tweety", "Whiskers"])
        #expect(animals.map { "\(type(of: $0))" } == ["Dog", "Dog", "Bird", "Mammal"])
        #expect(animals.map(\.objectID.entityName) == ["Dog", "Dog", "Bird", "Mammal"])
        let mammals = try context.fetch(FetchRequest<Mammal>(sortDescriptors: [SortDescriptor(key: "name")]))
        #expect(names(mammals) == ["Fido", "Rex", "Whiskers"])
        var own = FetchRequest<Mammal>()
        own.includesSubentities = false
        #expect(names(try context.fetch(own)) == ["Whiskers"])
        #expect(try context.fetch(FetchRequest<Dog>()).count == 2)
    }

    @Test func countOfAParentCountsEverySubEntitysObjects() throws {
        let (_, context) = try makeZoo()
        #expect(try context.count(for: FetchRequest<Animal>()) == 4)
        #expect(try context.count(for: FetchRequest<Animal>(predicate: FetchPredicate(format: "legs == 4"))) == 2)
        var limited = FetchRequest<Animal>()
        limited.fetchOffset = 1
        limited.fetchLimit = 2
        #expect(try context.count(for: limited) == 2)
        var own = FetchRequest<Animal>()
        own.includesSubentities = false
        #expect(try context.count(for: own) == 0)
        _ = Bird(context: context)
        #expect(try context.count(for: FetchRequest<Animal>()) == 5)
    }

    @Test func sortLimitAndOffsetApplyAcrossTheHierarchy() throws {
        let (_, context) = try makeZoo()
        var request = FetchRequest<Animal>(sortDescriptors: [
            SortDescriptor(key: "legs", ascending: false), SortDescriptor(key: "name"),
        ])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(names(try context.fetch(request)) == ["Whiskers", "Fido"])
        #expect(try context.fetchObjectIDs(request).map(\.entityName) == ["Mammal", "Dog"])
        var unsorted = FetchRequest<Animal>()
        unsorted.fetchLimit = 3
        #expect(try context.fetch(unsorted).count == 3)
        unsorted.fetchOffset = 3
        #expect(try context.fetch(unsorted).count == 1)
    }

    @Test func predicatesOnInheritedAttributesMatchSubEntityObjects() throws {
        let (_, context) = try makeZoo()
        let indexed = FetchRequest<Animal>(predicate: try FetchPredicate(format: "name BEGINSWITH %@", "F"))
        #expect(names(try context.fetch(indexed)) == ["Fido"])
        let inherited = FetchRequest<Dog>(predicate: try FetchPredicate(format: "legs < 4 AND barks == NO"))
        #expect(names(try context.fetch(inherited)) == ["Fido"])
        let throughToOne = FetchRequest<Animal>(
            predicate: try FetchPredicate(format: "keeper.name == %@", "Alice"),
            sortDescriptors: [SortDescriptor(key: "name")])
        #expect(names(try context.fetch(throughToOne)) == ["Rex", "Tweety", "Whiskers"])
        let throughToMany = FetchRequest<Keeper>(predicate: try FetchPredicate(format: "ANY pets.legs == 2"))
        #expect(try context.fetch(throughToMany).map(\.name) == ["Alice"])
        let sortedThroughToOne = FetchRequest<Animal>(sortDescriptors: [
            SortDescriptor(key: "keeper.name", ascending: false), SortDescriptor(key: "name"),
        ])
        #expect(names(try context.fetch(sortedThroughToOne)) == ["Fido", "Rex", "Tweety", "Whiskers"])
    }

    @Test func unsavedChangesOfSubEntityObjectsAreMatchedOnTheirCurrentValues() throws {
        let (_, context) = try makeZoo()
        let rex = try #require(
            try context.fetch(FetchRequest<Dog>(predicate: FetchPredicate(format: "name == 'Rex'"))).first)
        rex.name = "Rexy"
        let bird = Bird(context: context)
        bird.name = "Polly"
        let fetched = try context.fetch(
            FetchRequest<Animal>(
                predicate: try FetchPredicate(format: "name ENDSWITH 'y'"),
                sortDescriptors: [SortDescriptor(key: "name")]))
        #expect(names(fetched) == ["Polly", "Rexy", "Tweety"])
        #expect(fetched[1] === rex)
    }

    // MARK: - Abstract entities

    @Test func savingAnObjectOfAnAbstractEntityIsAValidationError() throws {
        let (_, context) = try makeZoo()
        let animal = Animal(context: context)
        animal.name = "Generic"
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.entityName == "Animal")
        #expect(error?.objectID == animal.objectID)
        #expect(error?.message.contains("abstract entity 'Animal'") == true)
        #expect(context.hasChanges)
        context.delete(animal)
        try context.save()
    }

    // MARK: - Relationships

    @Test func aRelationshipToAParentHoldsSubEntityObjectsAndKeepsItsInverse() throws {
        let (container, context) = try makeZoo()
        let alice = try #require(try context.fetch(Keeper.fetchRequest()).first { $0.name == "Alice" })
        #expect(Set(alice.pets.map(\.name)) == ["Rex", "Whiskers", "Tweety"])
        let fido = try #require(try context.fetch(FetchRequest<Dog>()).first { $0.name == "Fido" })
        alice.pets.insert(fido)
        #expect(fido.keeper === alice)
        let bob = try #require(try context.fetch(Keeper.fetchRequest()).first { $0.name == "Bob" })
        #expect(bob.pets.isEmpty)
        alice.favourite = fido
        try context.save()
        let reader = container.newContext()
        let stored = try #require(try reader.fetch(Keeper.fetchRequest()).first { $0.name == "Alice" })
        #expect(stored.pets.count == 4)
        #expect(stored.favourite is Dog)
    }

    @Test func untypedRelationshipsAcceptSubEntityObjectsAndRejectOthers() throws {
        let (_, context) = try makeZoo()
        let keeper = Keeper(context: context)
        let bird = Bird(context: context)
        try keeper.setValue(bird, forKey: "favourite")
        #expect(keeper.favourite === bird)
        let collar = Collar(context: context)
        let error = #expect(throws: PersistenceError.self) { try keeper.setValue(collar, forKey: "favourite") }
        #expect(error?.code == .typeMismatch)
        #expect(error?.key == "favourite")
        #expect(keeper.favourite === bird)
    }

    @Test func deleteRulesCascadeThroughSubEntityObjects() throws {
        let (container, context) = try makeZoo()
        let alice = try #require(try context.fetch(Keeper.fetchRequest()).first { $0.name == "Alice" })
        context.delete(alice)
        try context.save()
        let reader = container.newContext()
        #expect(names(try reader.fetch(FetchRequest<Animal>())) == ["Fido"])
        #expect(try reader.count(for: Collar.fetchRequest()) == 0)
    }

    @Test func nullifyRemovesADeletedSubEntityObjectFromTheParentsInverse() throws {
        let (container, context) = try makeZoo()
        let rex = try #require(try context.fetch(FetchRequest<Dog>()).first { $0.name == "Rex" })
        context.delete(rex)
        try context.save()
        let reader = container.newContext()
        let alice = try #require(try reader.fetch(Keeper.fetchRequest()).first { $0.name == "Alice" })
        #expect(Set(alice.pets.map(\.name)) == ["Whiskers", "Tweety"])
    }

    // MARK: - Batch requests

    @Test func batchDeleteOfAParentDeletesSubEntityObjects() throws {
        let (container, context) = try makeZoo()
        let result = try context.execute(
            BatchDeleteRequest(entityName: "Animal", predicate: try FetchPredicate(format: "legs == 4")))
        #expect(Set(result.deletedObjectIDs.map(\.entityName)) == ["Dog", "Mammal"])
        #expect(result.count == 2)
        let reader = container.newContext()
        #expect(
            names(try reader.fetch(FetchRequest<Animal>(sortDescriptors: [SortDescriptor(key: "name")])))
                == ["Fido", "Tweety"])
        // Rex's collar went with it (cascade), and the keeper's inverse lost him.
        #expect(try reader.count(for: Collar.fetchRequest()) == 0)
        let alice = try #require(try reader.fetch(Keeper.fetchRequest()).first { $0.name == "Alice" })
        #expect(alice.pets.map(\.name) == ["Tweety"])
        let all = try context.execute(BatchDeleteRequest(entityName: "Mammal"))
        #expect(all.count == 1)
        #expect(try container.newContext().count(for: FetchRequest<Animal>()) == 1)
    }

    @Test func batchUpdateOfAParentUpdatesSubEntityObjects() throws {
        let (container, context) = try makeZoo()
        let result = try context.execute(
            BatchUpdateRequest(
                entityName: "Animal", predicate: try FetchPredicate(format: "legs == 4"),
                propertiesToUpdate: ["legs": .int(5)]))
        #expect(Set(result.updatedObjectIDs.map(\.entityName)) == ["Dog", "Mammal"])
        let reader = container.newContext()
        #expect(try reader.count(for: FetchRequest<Animal>(predicate: FetchPredicate(format: "legs == 5"))) == 2)
    }

    @Test func deleteAllOfAParentEmptiesItsSubEntities() throws {
        let (container, context) = try makeZoo()
        #expect(try context.deleteAll(Mammal.self) == 3)
        let reader = container.newContext()
        #expect(names(try reader.fetch(FetchRequest<Animal>())) == ["Tweety"])
    }

    // MARK: - Stores

    @Test(arguments: [StoreKind.inMemory, .jsonFile, .binaryFile, .sqlite])
    func storesKeepEachObjectsConcreteEntity(kind: StoreKind) throws {
        let store = kind.makeStore()
        var ids: [ObjectID] = []
        do {
            let (_, context) = try makeZoo(store: store)
            ids = try context.fetchObjectIDs(FetchRequest<Animal>(sortDescriptors: [SortDescriptor(key: "name")]))
        }
        let reopened = kind == .inMemory ? store : reopen(store, kind: kind)
        let container = try PersistentContainer(model: InheritanceModels.zoo, store: reopened)
        let context = container.newContext()
        let animals = try context.fetch(FetchRequest<Animal>(sortDescriptors: [SortDescriptor(key: "name")]))
        #expect(animals.map(\.objectID) == ids)
        #expect(animals.map { "\(type(of: $0))" } == ["Dog", "Dog", "Bird", "Mammal"])
        let rex = try #require(animals[1] as? Dog)
        #expect(rex.collar?.color == "red" && rex.keeper?.name == "Alice" && rex.fur == "brown")
        #expect(rex.keeper?.pets.count == 3)
    }

    private func reopen(_ store: any PersistentStore, kind: StoreKind) -> any PersistentStore {
        switch (kind, store) {
        case (.jsonFile, let store as JSONFileStore): JSONFileStore(url: store.url)
        case (.binaryFile, let store as BinaryFileStore): BinaryFileStore(url: store.url)
        case (.sqlite, let store as SQLiteStore): SQLiteStore(url: store.url)
        default: store
        }
    }

    // MARK: - Fetched results

    @Test func aFetchedResultsControllerOnAParentTracksSubEntityObjects() throws {
        let (_, context) = try makeZoo()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Animal>(sortDescriptors: [SortDescriptor(key: "name")]), context: context)
        try controller.performFetch()
        #expect(names(controller.fetchedObjects) == ["Fido", "Rex", "Tweety", "Whiskers"])
        let dog = Dog(context: context)
        dog.name = "Spot"
        try context.save()
        #expect(names(controller.fetchedObjects) == ["Fido", "Rex", "Spot", "Tweety", "Whiskers"])
    }

    // MARK: - Uniqueness

    @Test func inheritedUniquenessConstraintsAreCheckedPerConcreteEntity() throws {
        let model = InheritanceModels.documents
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        for entity in ["Document", "Note"] {
            let item = ManagedObject(entity: try #require(model.entity(named: entity)), insertInto: context)
            try item.setValue("same", forKey: "title")
        }
        try context.save()
        let duplicate = ManagedObject(entity: try #require(model.entity(named: "Note")), insertInto: context)
        try duplicate.setValue("same", forKey: "title")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(error?.entityName == "Note")
    }

    // MARK: - Untyped hierarchies

    @Test func anUntypedHierarchyFetchesAndRelatesLikeATypedOne() throws {
        let container = try PersistentContainer(model: InheritanceModels.documents, storeDescription: .inMemory)
        let context = container.newContext()
        let model = InheritanceModels.documents
        let folder = ManagedObject(entity: try #require(model.entity(named: "Folder")), insertInto: context)
        for (entity, title) in [("Document", "a"), ("Invoice", "b"), ("Note", "c"), ("Invoice", "d")] {
            let item = ManagedObject(entity: try #require(model.entity(named: entity)), insertInto: context)
            try item.setValue(title, forKey: "title")
            try item.setValue(folder, forKey: "folder")
        }
        try context.save()
        let items = try context.fetch(
            FetchRequest<ManagedObject>(entityName: "Item", sortDescriptors: [SortDescriptor(key: "title")]))
        #expect(items.map(\.objectID.entityName) == ["Document", "Invoice", "Note", "Invoice"])
        #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Document")) == 3)
        let folderItems = try #require(try folder.value(forKey: "items") as? Set<ManagedObject>)
        #expect(folderItems.count == 4)
        let invoice = items[1]
        #expect(try invoice.value(forKey: "pages") as? Int64 == 1)
        #expect(invoice.entity.superentity?.name == "Document")
        context.delete(folder)
        try context.save()
        #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 0)
    }
}
