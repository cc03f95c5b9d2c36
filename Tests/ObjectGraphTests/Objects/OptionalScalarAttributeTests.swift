import Foundation
import ObjectGraph
import Testing

enum Urgency: Int16, AttributeValue {
    case low = 1, high = 2
}

/// Attributes that are optional in the store but plain values in Swift, as Core Data's
/// "Use Scalar Type" on an optional attribute declares them.
final class Errand: ManagedObject {
    @Attribute var title = ""
    @Attribute(optional: true) var done = false
    @Attribute(optional: true) var rank: Int32 = 7
    @Attribute(optional: true) var cost: Double = 0
    @Attribute(optional: true) var dueAt: Date
    @Attribute(optional: true) var urgency = Urgency.high
    @Attribute var flagged = false
}

@Suite struct OptionalScalarAttributeTests {
    private static let model = try! ManagedObjectModel(Errand.self)

    private func attribute(_ name: String) throws -> AttributeDescription {
        let entity = try #require(Self.model.entitiesByName["Errand"])
        return try #require(entity.attributes.first { $0.name == name })
    }

    // MARK: - Declaration

    @Test func optionalFlagMakesTheAttributeOptionalAndKeepsItsType() throws {
        #expect(try attribute("done").isOptional)
        #expect(try attribute("done").type == .boolean)
        #expect(try attribute("done").defaultValue == .bool(false))
        #expect(try attribute("rank").type == .integer32)
        #expect(try attribute("dueAt").isOptional)
        #expect(try attribute("dueAt").defaultValue == .null)
        #expect(try !attribute("flagged").isOptional)
    }

    // MARK: - Reading nil

    @Test func storedNilReadsAsTheTypesZero() throws {
        let context = try PersistentContainer(model: Self.model, storeDescription: .inMemory).newContext()
        let errand = Errand(context: context)
        #expect(errand.rank == 7)
        for key in ["done", "rank", "cost", "dueAt", "urgency"] { try errand.setValue(nil, forKey: key) }
        #expect(errand.done == false)
        #expect(errand.rank == 0)
        #expect(errand.cost == 0)
        #expect(errand.dueAt == Date(timeIntervalSinceReferenceDate: 0))
        // 0 is no Urgency: the declared default is read instead.
        #expect(errand.urgency == .high)
        #expect(try errand.value(forKey: "done") == nil)
        #expect(try errand.value(forKey: "rank") == nil)
        try context.save()
    }

    @Test func requiredScalarStillRefusesNil() throws {
        let context = try PersistentContainer(model: Self.model, storeDescription: .inMemory).newContext()
        let errand = Errand(context: context)
        try errand.setValue(nil, forKey: "flagged")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
    }

    // MARK: - Stores and predicates

    @Test(arguments: ["json", "binary"])
    func nilAndValuesSurviveAStoreRoundTrip(format: String) throws {
        let url = TemporaryDirectory.make().appendingPathComponent("errands.\(format)")
        let description: StoreDescription = format == "json" ? .jsonFile(url) : .binaryFile(url)
        do {
            let context = try PersistentContainer(model: Self.model, storeDescription: description).newContext()
            for (title, done) in [("unknown", nil), ("done", true), ("open", false)] as [(String, Bool?)] {
                let errand = Errand(context: context)
                errand.title = title
                try errand.setValue(done, forKey: "done")
            }
            try context.save()
        }
        let context = try PersistentContainer(model: Self.model, storeDescription: description).newContext()
        let errands = try context.fetch(FetchRequest<Errand>(sortDescriptors: [FetchSortDescriptor(key: "title")]))
        #expect(errands.map(\.title) == ["done", "open", "unknown"])
        #expect(errands.map(\.done) == [true, false, false])
        #expect(try errands.map { try $0.value(forKey: "done") as? Bool } == [true, false, nil])
        func titles(_ format: String) throws -> [String] {
            try context.fetch(FetchRequest<Errand>(predicate: FetchPredicate(format: format))).map(\.title).sorted()
        }
        #expect(try titles("done == nil") == ["unknown"])
        #expect(try titles("done != nil") == ["done", "open"])
        #expect(try titles("done == NO") == ["open"])
        #expect(try titles("done == YES") == ["done"])
    }

    @Test func settingAValueReplacesAStoredNil() throws {
        let context = try PersistentContainer(model: Self.model, storeDescription: .inMemory).newContext()
        let errand = Errand(context: context)
        try errand.setValue(nil, forKey: "done")
        errand.done = true
        #expect(try errand.value(forKey: "done") as? Bool == true)
        try context.save()
        #expect(try context.count(for: FetchRequest<Errand>(predicate: FetchPredicate(format: "done == nil"))) == 0)
    }

    @Test func typedKeyPathsFindOptionalScalars() throws {
        let context = try PersistentContainer(model: Self.model, storeDescription: .inMemory).newContext()
        for (title, day) in [("later", 2.0), ("never", nil), ("sooner", 1.0)] as [(String, Double?)] {
            let errand = Errand(context: context)
            errand.title = title
            try errand.setValue(day.map { Date(timeIntervalSinceReferenceDate: $0 * 86_400) }, forKey: "dueAt")
        }
        let sorted = try context.fetch(FetchRequest<Errand>(sortDescriptors: [FetchSortDescriptor(\Errand.dueAt)]))
        #expect(sorted.map(\.title) == ["never", "sooner", "later"])
        let undone = try context.fetch(FetchRequest<Errand>(predicate: FetchPredicate(#Predicate<Errand> { !$0.done })))
        #expect(undone.count == 3)
    }
}
