import Foundation
import ObjectGraph
import Testing

@Suite struct FetchResultKindsTests {
    /// Ten saved fruits "f0"…"f9" priced 0, 10, …, 90; the even ones in a basket "Kitchen".
    private func makeStocked() throws -> (PersistentContainer, ManagedContext, Basket) {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        basket.label = "Kitchen"
        for index in 0..<10 {
            let fruit = makeFruit(context, "f\(index)", price: Int64(index * 10))
            if index.isMultiple(of: 2) { fruit.basket = basket }
        }
        try context.save()
        return (container, container.newContext(), basket)
    }

    // MARK: - Object IDs

    @Test func objectIDsMatchWhatFetchReturnsInTheSameOrder() throws {
        let (container, reader, _) = try makeStocked()
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price >= %d", 20)
        request.sortDescriptors = [SortDescriptor(key: "price", ascending: false)]
        request.fetchOffset = 1
        request.fetchLimit = 4
        let ids = try reader.fetchObjectIDs(request)
        #expect(reader.registeredObjects.isEmpty, "an ID fetch registers no objects")
        let objects = try container.newContext().fetch(request)
        #expect(ids == objects.map(\.objectID))
        #expect(objects.map(\.price) == [80, 70, 60, 50])
    }

    @Test func objectIDsHonourPendingChanges() throws {
        let (_, context, _) = try makeStocked()
        let all = try context.fetch(Fruit.fetchRequest())
        all[0].price = 1_000  // unsaved update now matches
        context.delete(all[9])  // pending delete does not match
        let fig = makeFruit(context, "fig", price: 500)  // unsaved insert matches
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price >= %d", 90)
        #expect(try context.fetchObjectIDs(request) == [all[0].objectID, fig.objectID])
        request.includesPendingChanges = false
        #expect(try context.fetchObjectIDs(request) == [all[9].objectID])
    }

    @Test func objectIDsOfAnEmptyEntityAndOfUnknownEntities() throws {
        let (_, context) = try makeContext()
        #expect(try context.fetchObjectIDs(Fruit.fetchRequest()).isEmpty)
        let error = #expect(throws: PersistenceError.self) {
            try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Nope"))
        }
        #expect(error?.code == .invalidFetchRequest)
    }

    // MARK: - Dictionary rows

    @Test func rowsHoldTheNamedAttributesAndToOneRelationshipsAsIDs() throws {
        let (_, reader, basket) = try makeStocked()
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price < %d", 20)
        request.propertiesToFetch = ["name", "price", "basket", "basket.label"]
        let rows = try reader.fetchRows(request)
        #expect(reader.registeredObjects.isEmpty, "a dictionary fetch registers no objects")
        #expect(rows.count == 2)
        #expect(
            rows[0].values == ["name": "f0", "price": 0, "basket": .object(basket.objectID), "basket.label": "Kitchen"])
        #expect(rows[1].values == ["name": "f1", "price": 10, "basket": .null, "basket.label": .null])
        #expect(rows[0].value(forKey: "name", as: String.self) == "f0")
        #expect(rows[1].value(forKey: "price", as: Int64.self) == 10)
        #expect(rows[1].value(forKey: "basket.label", as: String.self) == nil)
        #expect(rows[0].value(forKey: "colour", as: String.self) == nil)
        #expect(rows[0]["colour"] == nil && rows[1]["basket"] == .null)
        #expect(rows[0].objectID.entityName == "Fruit")
    }

    @Test func withoutPropertiesToFetchRowsHoldEveryAttributeAndToOneRelationship() throws {
        let (_, reader, _) = try makeStocked()
        var request = Fruit.fetchRequest()
        request.fetchLimit = 1
        let row = try #require(try reader.fetchRows(request).first)
        #expect(Set(row.values.keys) == ["name", "price", "basket"], "to-many 'tags' is left out")
        request.propertiesToFetch = []
        #expect(try reader.fetchRows(request).first?.values == [:])
        request.propertiesToFetch = ["name", "name"]
        #expect(try reader.fetchRows(request).first?.values == ["name": "f0"])
    }

    @Test func rowsFollowSortLimitOffsetAndPendingChanges() throws {
        let (_, context, _) = try makeStocked()
        let all = try context.fetch(Fruit.fetchRequest())
        all[3].name = "りんご 🍎"
        all[3].price = 999
        context.delete(all[8])
        makeFruit(context, "新しい", price: 85)
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price > %d", 60)
        request.sortDescriptors = [SortDescriptor(key: "price", ascending: false)]
        request.propertiesToFetch = ["name"]
        #expect(
            try context.fetchRows(request).map { $0.value(forKey: "name", as: String.self)! } == [
                "りんご 🍎", "f9", "新しい", "f7",
            ])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(
            try context.fetchRows(request).compactMap { $0.value(forKey: "name", as: String.self) } == ["f9", "新しい"])
        request.includesPendingChanges = false
        request.fetchOffset = 0
        request.fetchLimit = 0
        #expect(
            try context.fetchRows(request).compactMap { $0.value(forKey: "name", as: String.self) } == [
                "f9", "f8", "f7",
            ])
    }

    @Test func rowsReadRelatedObjectsAsTheContextHasThem() throws {
        let (_, context, basket) = try makeStocked()
        let mine = try context.existingObject(with: basket.objectID) as! Basket
        var request = Fruit.fetchRequest()
        request.propertiesToFetch = ["basket.label"]
        request.predicate = try FetchPredicate(format: "name == %@", "f0")
        mine.label = "Pantry"  // unsaved
        #expect(try context.fetchRows(request).first?["basket.label"] == "Pantry")
        request.includesPendingChanges = false
        #expect(try context.fetchRows(request).first?["basket.label"] == "Kitchen")
    }

    @Test func aToOneDestinationPendingDeletionReadsAsNil() throws {
        let (container, context) = try makeContext()
        let basket = Basket(context: context)
        let owner = Owner(context: context)
        basket.owner = owner
        try context.save()
        context.delete(owner)  // deny: checked at save, so the basket still refers to it
        var request = Basket.fetchRequest()
        request.propertiesToFetch = ["owner", "owner.name"]
        #expect(try context.fetchRows(request).first?.values == ["owner": .null, "owner.name": .null])
        request.includesPendingChanges = false
        #expect(try context.fetchRows(request).first?["owner"] == .object(owner.objectID))
        #expect(try container.newContext().fetchRows(request).first?["owner.name"] == "")
    }

    @Test func unknownAndUnsupportedPropertiesAreTypedErrorsNamingTheKey() throws {
        let (_, context, _) = try makeStocked()
        var request = Fruit.fetchRequest()
        for (key, code) in [
            ("colour", PersistenceError.Code.unknownKey), ("basket.nope", .unknownKey), ("", .unknownKey),
            ("tags", .invalidFetchRequest), ("tags.title", .invalidFetchRequest), ("price.cents", .invalidFetchRequest),
        ] {
            request.propertiesToFetch = ["name", key]
            let error = #expect(throws: PersistenceError.self, "\(key)") { try context.fetchRows(request) }
            #expect(error?.code == code, "\(key)")
            #expect(error?.key == key, "\(key)")
            #expect(error?.entityName != nil)
            #expect(error?.message.contains("'\(key)'") == true, "\(error?.message ?? "")")
        }
    }

    @Test func rowsAreSendableValues() async throws {
        let (_, context, _) = try makeStocked()
        var request = Fruit.fetchRequest()
        request.propertiesToFetch = ["price"]
        let rows = try context.fetchRows(request)
        let total = await Task.detached { rows.compactMap { $0.value(forKey: "price", as: Int64.self) }.reduce(0, +) }
            .value
        #expect(total == 450)
        #expect(Set(rows).count == 10)
        #expect(rows[0].description.contains("price: 0"))
    }
}
