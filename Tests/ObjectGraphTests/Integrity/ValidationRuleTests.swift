import Foundation
import ObjectGraph
import Testing

@Suite struct ValidationRuleTests {
    @Test func everyRuleIsCheckedAndEveryFailureListed() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let person = makePerson(context, "Ada", "Lovelace")
        person.name = ""
        person.age = 151
        person.email = "not an address"
        person.joined = Date(timeIntervalSinceReferenceDate: -1)
        person.clubs = Set((0..<4).map { _ in Club(context: context) })
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        let keys = Set(error?.detailedErrors.compactMap(\.key) ?? [])
        #expect(keys == ["name", "age", "email", "joined", "clubs"], "\(keys)")
        #expect(
            error?.detailedErrors.allSatisfy { $0.objectID == person.objectID && $0.entityName == "Person" } == true)
        #expect(try container.newContext().count(for: Person.fetchRequest()) == 0)
        #expect(context.insertedObjects.count == 5)
    }

    @Test func valuesAtTheBoundsAreValid() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let person = makePerson(context, "Grace", "Hopper", email: "grace@navy.mil")
        person.age = 150
        person.name = String(repeating: "é", count: 40)
        person.joined = Date(timeIntervalSinceReferenceDate: 0)
        person.clubs = Set((0..<3).map { _ in Club(context: context) })
        try context.save()
        person.age = 0
        try context.save()
    }

    @Test func patternMustMatchTheWholeString() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let person = makePerson(context, "A", "B", email: "a@b trailing")
        #expect(throws: PersistenceError.self) { try context.save() }
        person.email = "a@b"
        try context.save()
    }

    @Test func validateForInsertRunsOnlyForInserts() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let person = makePerson(context, "A", "B")
        person.name = "forbidden"
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.key == "name" && error?.message.contains("Not on insert") == true)
        person.name = "fine"
        try context.save()
        person.name = "forbidden"
        try context.save()
    }

    @Test func modelRejectsRulesThatCannotApply() {
        let cases: [AttributeDescription] = [
            AttributeDescription(name: "a", type: .string, validation: AttributeValidation(minimum: 1)),
            AttributeDescription(name: "a", type: .integer64, validation: AttributeValidation(minimum: "x")),
            AttributeDescription(name: "a", type: .integer64, validation: AttributeValidation(minimum: 5, maximum: 1)),
            AttributeDescription(name: "a", type: .boolean, validation: AttributeValidation(length: 1...2)),
            AttributeDescription(name: "a", type: .integer64, validation: AttributeValidation(pattern: "x")),
            AttributeDescription(name: "a", type: .string, validation: AttributeValidation(pattern: "(unclosed")),
        ]
        for attribute in cases {
            let error = #expect(throws: PersistenceError.self) {
                try ManagedObjectModel(entities: [EntityDescription(name: "E", attributes: [attribute])])
            }
            #expect(error?.code == .invalidModel && error?.key == "a")
        }
    }

    @Test func decimalAndDoubleBoundsCompareNumerically() throws {
        let entity = EntityDescription(
            name: "Price",
            attributes: [
                AttributeDescription(
                    name: "amount", type: .decimal, validation: AttributeValidation(minimum: 0, maximum: 9.99)),
                AttributeDescription(name: "ratio", type: .double, validation: AttributeValidation(minimum: 0.5)),
            ])
        let container = try PersistentContainer(
            model: try ManagedObjectModel(entities: [entity]), storeDescription: .inMemory)
        let context = container.newContext()
        let price = ManagedObject(entity: context.model.entity(named: "Price")!, insertInto: context)
        try price.setValue(Decimal(string: "9.99")!, forKey: "amount")
        try price.setValue(0.5, forKey: "ratio")
        try context.save()
        try price.setValue(Decimal(string: "9.991")!, forKey: "amount")
        try price.setValue(0.49, forKey: "ratio")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(Set(error?.detailedErrors.compactMap(\.key) ?? []) == ["amount", "ratio"])
    }
}
