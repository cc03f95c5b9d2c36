import Foundation
import ObjectGraph
import Testing

@Suite struct ObjectIDSortTests {
    /// Fruits of equal price inserted in the order of `names`, saved, then `pending` unsaved ones.
    private func fruits(_ names: [String], pending: [String] = []) throws -> (PersistentContainer, ManagedContext) {
        let (container, context) = try makeContext()
        for name in names { makeFruit(context, name, price: 1) }
        try context.save()
        for name in pending { makeFruit(context, name, price: 1) }
        return (container, context)
    }

    private func request(_ sorts: [ObjectGraph.SortDescriptor]) -> FetchRequest<Fruit> {
        var request = Fruit.fetchRequest()
        request.sortDescriptors = sorts
        return request
    }

    @Test func aKeyPathToObjectIDSortsByKey() throws {
        let (_, context) = try fruits(["c", "a", "b"])
        let descriptor = ObjectGraph.SortDescriptor(\Fruit.objectID)
        #expect(descriptor.key == "objectID" && descriptor.ascending)
        let ascending = try context.fetch(request([SortDescriptor(key: "price"), descriptor]))
        #expect(ascending.map(\.name) == ["c", "a", "b"])
        let descending = try context.fetch(request([ObjectGraph.SortDescriptor(\Fruit.objectID, order: .reverse)]))
        #expect(descending.map(\.name) == ["b", "a", "c"])
    }

    @Test func theStringKeyObjectIDSortsTheSameWay() throws {
        let (_, context) = try fruits(["c", "a", "b"])
        let fetched = try context.fetch(request([SortDescriptor(key: "objectID", ascending: false)]))
        #expect(fetched.map(\.name) == ["b", "a", "c"])
        let keys = fetched.map(\.objectID.key)
        #expect(keys == keys.sorted(by: >))
    }

    @Test func objectIDBreaksTiesOfAnotherKey() throws {
        let (_, context) = try makeContext()
        for (name, price) in [("x", 2), ("y", 1), ("z", 2), ("w", 1)] { makeFruit(context, name, price: Int64(price)) }
        try context.save()
        let fetched = try context.fetch(
            request([SortDescriptor(key: "price"), SortDescriptor(key: "objectID", ascending: false)]))
        #expect(fetched.map(\.name) == ["w", "y", "z", "x"])
    }

    @Test func pendingInsertsSortAfterSavedObjectsInInsertionOrder() throws {
        let (_, context) = try fruits(["a", "b"], pending: ["c", "d"])
        #expect(try context.fetch(request([SortDescriptor(key: "objectID")])).map(\.name) == ["a", "b", "c", "d"])
        #expect(
            try context.fetch(request([SortDescriptor(key: "objectID", ascending: false)])).map(\.name)
                == ["d", "c", "b", "a"])
        var limited = request([SortDescriptor(key: "objectID", ascending: false)])
        limited.fetchLimit = 2
        limited.fetchOffset = 1
        #expect(try context.fetch(limited).map(\.name) == ["c", "b"])
    }

    @Test func objectIDAndDictionaryResultsSortByObjectID() throws {
        let (_, context) = try fruits(["a", "b", "c"])
        var sorted = request([SortDescriptor(key: "objectID", ascending: false)])
        let ids = try context.fetchObjectIDs(sorted)
        #expect(ids == ids.sorted(by: >) && ids.count == 3)
        sorted.propertiesToFetch = ["name"]
        #expect(try context.fetchRows(sorted).map { $0.value(forKey: "name", as: String.self) } == ["c", "b", "a"])
    }

    @Test func aFetchedResultsControllerKeepsObjectIDOrder() throws {
        let (_, context) = try fruits(["a", "b"])
        let controller = FetchedResultsController(
            fetchRequest: request([SortDescriptor(key: "price"), SortDescriptor(key: "objectID", ascending: false)]),
            context: context)
        try controller.performFetch()
        #expect(controller.fetchedObjects.map(\.name) == ["b", "a"])
        makeFruit(context, "c", price: 1)
        try context.save()
        #expect(controller.fetchedObjects.map(\.name) == ["c", "b", "a"])
    }

    @Test func aChildContextSortsItsOwnAndItsParentsInsertsByObjectID() throws {
        let (_, context) = try fruits(["a"], pending: ["b"])
        let child = context.newChildContext()
        makeFruit(child, "c", price: 1)
        #expect(
            try child.fetch(request([SortDescriptor(key: "objectID", ascending: false)])).map(\.name)
                == ["c", "b", "a"])
    }

    @Test func aToOneHopSortsByTheRelatedObjectsID() throws {
        let (_, context) = try makeContext()
        let first = Basket(context: context)
        let second = Basket(context: context)
        for (name, basket) in [("in second", second), ("in none", nil), ("in first", first)] {
            makeFruit(context, name).basket = basket
        }
        try context.save()
        let ascending = try context.fetch(request([SortDescriptor(key: "basket.objectID")]))
        #expect(ascending.map(\.name) == ["in none", "in first", "in second"])
        let descending = try context.fetch(request([SortDescriptor(key: "basket.objectID", ascending: false)]))
        #expect(descending.map(\.name) == ["in second", "in first", "in none"])
        let twoHops = try context.fetch(request([SortDescriptor(key: "basket.owner.objectID")]))
        #expect(twoHops.count == 3)
    }

    @Test func objectIDThroughAToManyRelationshipIsRefused() throws {
        let (_, context) = try fruits(["a"])
        let error = #expect(throws: PersistenceError.self) {
            try context.fetch(request([SortDescriptor(key: "tags.objectID")]))
        }
        #expect(error?.code == .invalidFetchRequest && error?.key == "tags.objectID" && error?.entityName == "Fruit")
    }

    @Test func objectIDThroughAnUnknownKeyIsRefused() throws {
        let (_, context) = try fruits(["a"])
        let error = #expect(throws: PersistenceError.self) {
            try context.fetch(request([SortDescriptor(key: "crate.objectID")]))
        }
        #expect(error?.code == .unknownKey)
        let pastAttribute = #expect(throws: PersistenceError.self) {
            try context.fetch(request([SortDescriptor(key: "name.objectID")]))
        }
        #expect(pastAttribute != nil)
    }

    @Test func anAttributeNamedObjectIDIsSortedAsThatAttribute() throws {
        let entity = EntityDescription(
            name: "Legacy", attributes: [AttributeDescription(name: "objectID", type: .string, isOptional: false)])
        let container = try PersistentContainer(
            model: try ManagedObjectModel(entities: [entity]), storeDescription: .inMemory)
        let context = container.newContext()
        for value in ["b", "c", "a"] {
            try ManagedObject(entity: entity, insertInto: context).setValue(value, forKey: "objectID")
        }
        let sorted = try context.fetch(
            FetchRequest<ManagedObject>(
                entityName: "Legacy", sortDescriptors: [SortDescriptor(key: "objectID")]))
        #expect(try sorted.map { try $0.value(forKey: "objectID") as? String } == ["a", "b", "c"])
    }
}
