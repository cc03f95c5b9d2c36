import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct BatchUpdateRequestTests {
    private func names(_ container: PersistentContainer) throws -> [String] {
        try container.newContext().fetch(Fruit.fetchRequest()).map { "\($0.name) \($0.price)" }
    }

    // MARK: - Every store

    @Test(arguments: StoreKind.allCases)
    func setsTheValuesDurablyInOneCommit(kind: StoreKind) throws {
        let store = kind.makeStore()
        let expected = ["f0 0", "f1 1", "f2 1", "f3 1", "sold out 7", "sold out 7"]
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            for index in 0..<6 { makeFruit(context, "f\(index)", price: Int64(min(index, 1))) }
            try context.save()
            let request = BatchUpdateRequest(
                Fruit.self, predicate: try FetchPredicate(format: "name IN %@", ["f4", "f5", "missing"]),
                propertiesToUpdate: ["name": "sold out", "price": 7])
            let result = try context.execute(request)
            #expect(result.updatedObjectIDs.map(\.key) == [5, 6])
            #expect(result.count == 2)
            #expect(result.notification.updatedObjectIDs == Set(result.updatedObjectIDs))
            #expect(result.notification.deletedObjectIDs.isEmpty && result.notification.insertedObjectIDs.isEmpty)
            #expect(try names(container) == expected)
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        #expect(try names(container) == (kind.persists ? expected : []))
    }

    @Test(arguments: [StoreKind.jsonFile, .binaryFile, .sqlite])
    func aNewStoreOnTheSameFileReadsTheBatches(kind: StoreKind) throws {
        let name = kind == .jsonFile ? "store.json" : kind == .sqlite ? "store.sqlite" : "store.ogdb"
        let url = TemporaryDirectory.make().appendingPathComponent(name)
        func open() throws -> PersistentContainer {
            try PersistentContainer(model: TestModels.fruits, storeDescription: try StoreDescription(url: url))
        }
        do {
            let container = try open()
            let context = container.newContext()
            let basket = Basket(context: context)
            basket.label = "Kitchen"
            for index in 0..<6 { makeFruit(context, "f\(index)", price: 1).basket = index < 3 ? basket : nil }
            try context.save()
            let kitchen = try FetchPredicate(format: "basket.label == %@", "Kitchen")
            #expect(
                try context.execute(
                    BatchUpdateRequest(Fruit.self, predicate: kitchen, propertiesToUpdate: ["price": 9])
                ).count == 3)
            let cheap = try FetchPredicate(format: "price == 1 AND name != 'f5'")
            #expect(try context.execute(BatchDeleteRequest(Fruit.self, predicate: cheap)).count == 2)
        }
        let container = try open()
        #expect(try names(container) == ["f0 9", "f1 9", "f2 9", "f5 1"])
        let reader = container.newContext()
        let basket = try #require(try reader.fetch(Basket.fetchRequest()).first)
        #expect(basket.fruits.map(\.name).sorted() == ["f0", "f1", "f2"])
        #expect(container.committedSnapshot().danglingReferences().isEmpty)
    }

    @Test func objectsThatAlreadyHoldTheValuesAreLeftAlone() throws {
        let (container, context) = try makeContext()
        for index in 0..<4 { makeFruit(context, "f\(index)", price: index < 2 ? 5 : 9) }
        try context.save()
        let reader = container.newContext()
        let held = try reader.fetch(Fruit.fetchRequest())
        let result = try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 5]))
        #expect(result.updatedObjectIDs == [held[2].objectID, held[3].objectID])
        // Unchanged objects keep their version: editing them saves without a conflict.
        held[0].name = "still current"
        try reader.save()
        let again = try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 5]))
        #expect(again.updatedObjectIDs.isEmpty && again.notification.sequenceNumber == 0)
    }

    // MARK: - Optimistic locking and merging

    @Test func versionsGoUpSoStaleEditsConflictUntilMerged() throws {
        let (container, context) = try makeContext()
        for index in 0..<3 { makeFruit(context, "f\(index)", price: 1) }
        try context.save()
        let editor = container.newContext()
        let fruits = try editor.fetch(Fruit.fetchRequest())
        fruits[0].name = "renamed"
        let result = try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 2]))
        #expect(result.count == 3)
        #expect(fruits[0].price == 1, "not changed in place")
        let conflict = #expect(throws: PersistenceError.self) { try editor.save() }
        #expect(conflict?.code == .conflict && conflict?.objectID == fruits[0].objectID)
        #expect(editor.hasChanges, "a failed save keeps the edits")
        editor.mergeChanges(from: result.notification)
        #expect(fruits.map(\.price) == [2, 2, 2] && fruits[0].name == "renamed")
        try editor.save()
        #expect(try names(container) == ["renamed 2", "f1 2", "f2 2"])
    }

    @Test func storeTrumpPolicyTakesTheBatchValues() throws {
        let (container, context) = try makeContext()
        makeFruit(context, "apple", price: 1)
        try context.save()
        let editor = container.newContext()
        editor.mergePolicy = .mergeByPropertyStoreTrump
        let apple = try #require(try editor.fetch(Fruit.fetchRequest()).first)
        apple.price = 50
        apple.name = "mine"
        try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 3]))
        try editor.save()
        #expect(try names(container) == ["mine 3"])
    }

    @Test func automaticallyMergingContextsSeeTheUpdate() async throws {
        let (container, context) = try makeContext()
        makeFruit(context, "apple", price: 1)
        try context.save()
        var saves = container.saves.makeAsyncIterator()
        context.automaticallyMergesChanges = true
        let apple = try #require(try context.fetch(Fruit.fetchRequest()).first)
        let result = try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 4]))
        #expect(apple.price == 1)
        _ = try context.count(for: Fruit.fetchRequest())  // merges the inbox
        #expect(apple.price == 4 && !context.hasChanges)
        #expect(try #require(await saves.next()) == result.notification)
    }

    // MARK: - Checked values refuse the whole batch

    @Test func badRequestsAreTypedErrorsAndChangeNothing() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        for index in 0..<3 { makePerson(context, "first\(index)", "last", email: "p\(index)@example.com") }
        try context.save()
        let before = container.committedSnapshot().jsonDocument()
        let cases: [(String, [String: StoreValue], PersistenceError.Code, String?)] = [
            ("unknown key", ["colour": "red"], .unknownKey, "colour"),
            ("relationship", ["badge": .null], .invalidFetchRequest, "badge"),
            ("no properties", [:], .invalidFetchRequest, nil),
            ("wrong type", ["age": "old"], .typeMismatch, "age"),
            ("out of Int16 range", ["age": 100_000], .typeMismatch, "age"),
            ("required nil", ["name": nil], .validation, "name"),
            ("above maximum", ["age": 151], .validation, "age"),
            ("below minimum", ["age": -1], .validation, "age"),
            ("too long", ["name": .string(String(repeating: "x", count: 41))], .validation, "name"),
            ("too short", ["name": ""], .validation, "name"),
            ("pattern", ["email": "not an address"], .validation, "email"),
            ("date below minimum", ["joined": .date(Date(timeIntervalSinceReferenceDate: -1))], .validation, "joined"),
            ("uniqueness of several", ["email": "same@example.com"], .conflict, nil),
            ("composite uniqueness", ["firstName": "same"], .conflict, nil),
        ]
        for (label, values, code, key) in cases {
            let request = BatchUpdateRequest(Person.self, propertiesToUpdate: values)
            let error = #expect(throws: PersistenceError.self, "\(label)") { try context.execute(request) }
            #expect(error?.code == code, "\(label): \(String(describing: error))")
            if let key { #expect(error?.key == key, "\(label)") }
            #expect(error?.message.isEmpty == false)
        }
        let unknown = #expect(throws: PersistenceError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Nope", propertiesToUpdate: ["a": 1]))
        }
        #expect(unknown?.code == .unknownEntity)
        #expect(container.committedSnapshot().jsonDocument() == before)
    }

    @Test func uniquenessIsCheckedAgainstTheObjectsOutsideTheBatch() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
        makePerson(context, "Alan", "Turing", email: "alan@example.com")
        try context.save()
        let clash = BatchUpdateRequest(
            Person.self, predicate: try FetchPredicate(format: "firstName == 'Alan'"),
            propertiesToUpdate: ["email": "ada@example.com"])
        let error = #expect(throws: PersistenceError.self) { try context.execute(clash) }
        #expect(error?.code == .conflict)
        let fine = BatchUpdateRequest(
            Person.self, predicate: try FetchPredicate(format: "firstName == 'Alan'"),
            propertiesToUpdate: ["email": "alan.turing@example.com", "age": 41])
        #expect(try context.execute(fine).count == 1)
        let emails = try container.newContext().fetch(Person.fetchRequest()).map { $0.email ?? "-" }
        #expect(emails == ["ada@example.com", "alan.turing@example.com"])
    }

    @Test func valuesAreNormalizedToTheAttributeType() throws {
        let (container, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        sample.required = "x"
        try context.save()
        let when = Date(timeIntervalSinceReferenceDate: 1_000)
        let request = BatchUpdateRequest(
            Sample.self,
            propertiesToUpdate: [
                "real": 3, "single": 2.5, "amount": 7, "small": 12, "optionalText": "héllo 🌍", "optionalNumber": nil,
                "date": .date(when), "required": "y",
            ])
        #expect(try context.execute(request).count == 1)
        let stored = try #require(try container.newContext().fetch(Sample.fetchRequest()).first)
        #expect(stored.real == 3 && stored.single == 2.5 && stored.amount == 7 && stored.small == 12)
        #expect(stored.optionalText == "héllo 🌍" && stored.optionalNumber == nil && stored.date == when)
        #expect(stored.required == "y")
    }

    @Test func aFailedStoreSaveChangesNothing() throws {
        let store = FaultInjectingStore(
            wrapping: BinaryFileStore(
                url: TemporaryDirectory.make().appendingPathComponent("store.ogdb")))
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        for index in 0..<5 { makeFruit(context, "f\(index)", price: Int64(index)) }
        try context.save()
        let before = container.committedSnapshot().jsonDocument()
        store.failNextSave(with: FaultInjectingStore.Fault.ioFailure)
        let request = BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 0])
        #expect(throws: FaultInjectingStore.Fault.ioFailure) { try context.execute(request) }
        #expect(container.committedSnapshot().jsonDocument() == before)
        #expect(try context.execute(request).count == 4)
        #expect(try names(container) == ["f0 0", "f1 0", "f2 0", "f3 0", "f4 0"])
    }

    @Test func nothingMatchedCommitsNothing() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        store.failEverySave()
        let result = try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": 1]))
        #expect(result.updatedObjectIDs.isEmpty && store.saveAttempts == 0)
    }

    // MARK: - Scale

    @Test func updatesAHundredThousandRows() throws {
        let (container, context) = try makeContext()
        for index in 0..<100_000 { makeFruit(context, "f\(index)", price: Int64(index % 10)) }
        try context.save()
        context.reset()
        let result = try context.execute(
            BatchUpdateRequest(
                Fruit.self, predicate: try FetchPredicate(format: "price < 5"), propertiesToUpdate: ["price": 42]))
        #expect(result.count == 50_000)
        #expect(zip(result.updatedObjectIDs, result.updatedObjectIDs.dropFirst()).allSatisfy { $0.key < $1.key })
        #expect(
            try context.count(for: FetchRequest<Fruit>(predicate: try FetchPredicate(format: "price == 42"))) == 50_000)
        #expect(try context.count(for: FetchRequest<Fruit>(predicate: try FetchPredicate(format: "price < 5"))) == 0)
        let all = try context.execute(BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["name": "same"]))
        #expect(all.count == 100_000)
        #expect(container.committedSnapshot().count(ofEntity: "Fruit") == 100_000)
        #expect(context.registeredObjects.isEmpty)
    }
}
