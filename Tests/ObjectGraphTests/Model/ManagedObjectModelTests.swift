import Foundation
import ObjectGraph
import Testing

@Suite struct ManagedObjectModelTests {
    // MARK: - Derivation from classes

    @Test func derivesEntitiesFromClassesInDeclarationOrder() throws {
        let fruit = try #require(TestModels.fruits.entity(named: "Fruit"))
        #expect(fruit.attributes.map(\.name) == ["name", "price"])
        #expect(fruit.attributes.map(\.type) == [.string, .integer64])
        #expect(fruit.attributes[0].isIndexed)
        #expect(fruit.attributes[1].defaultValue == .int(0))
        #expect(fruit.relationships.map(\.name) == ["basket", "tags"])
        #expect(fruit.managedObjectClass == Fruit.self)
        #expect(TestModels.fruits.entity(for: Fruit.self)?.name == "Fruit")
    }

    @Test func derivesRelationshipKindsFromSwiftTypes() throws {
        let basket = try #require(TestModels.fruits.entity(named: "Basket"))
        let fruits = try #require(basket.relationshipsByName["fruits"])
        #expect(fruits.isToMany && !fruits.isOrdered)
        #expect(fruits.destination == "Fruit" && fruits.inverse == "basket" && fruits.deleteRule == .cascade)
        let owner = try #require(basket.relationshipsByName["owner"])
        #expect(!owner.isToMany && owner.isOptional)
    }

    @Test func derivesEveryAttributeTypeAndOptionality() throws {
        let sample = try #require(TestModels.samples.entity(named: "Sample")).attributesByName
        let expected: [String: AttributeType] = [
            "text": .string, "flag": .boolean, "small": .integer16, "medium": .integer32, "large": .integer64,
            "count": .integer64, "single": .float, "real": .double, "amount": .decimal, "date": .date,
            "blob": .binary, "identifier": .uuid, "link": .uri, "ripeness": .string, "grade": .integer16,
            "origin": .codable, "optionalOrigin": .codable, "optionalRipeness": .string,
        ]
        for (name, type) in expected { #expect(sample[name]?.type == type, "\(name)") }
        #expect(sample["optionalText"]?.isOptional == true)
        #expect(sample["text"]?.isOptional == false)
        #expect(sample["required"]?.defaultValue == .null)
        #expect(sample["ripeness"]?.defaultValue == .string("green"))
        #expect(sample["grade"]?.defaultValue == .int(1))
    }

    // MARK: - Validation

    @Test func rejectsDuplicateEntityNames() {
        let error = #expect(throws: PersistenceError.self) {
            try ManagedObjectModel(entities: [EntityDescription(name: "A"), EntityDescription(name: "A")])
        }
        #expect(error?.code == .invalidModel)
        #expect(error?.entityName == "A")
        #expect(error?.message.contains("two entities named 'A'") == true)
    }

    @Test func rejectsDuplicatePropertyNames() {
        let entity = EntityDescription(
            name: "A", attributes: [AttributeDescription(name: "x", type: .string)],
            relationships: [RelationshipDescription(name: "x", destination: "A", inverse: nil)])
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
        #expect(error?.code == .invalidModel)
        #expect(error?.key == "x")
    }

    @Test func rejectsRelationshipToUnknownEntity() {
        let entity = EntityDescription(
            name: "A", relationships: [RelationshipDescription(name: "b", destination: "B", inverse: nil)])
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
        #expect(error?.code == .invalidModel)
        #expect(error?.message.contains("'B', which is not in the model") == true)
    }

    @Test func rejectsMissingInverse() {
        let a = EntityDescription(
            name: "A", relationships: [RelationshipDescription(name: "b", destination: "B", inverse: "a")])
        let b = EntityDescription(name: "B")
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [a, b]) }
        #expect(error?.message.contains("'B.a', which does not exist") == true)
    }

    @Test func rejectsMismatchedInverse() {
        let a = EntityDescription(
            name: "A",
            relationships: [
                RelationshipDescription(name: "b", destination: "B", inverse: "a"),
                RelationshipDescription(name: "other", destination: "B", inverse: nil),
            ])
        let b = EntityDescription(
            name: "B", relationships: [RelationshipDescription(name: "a", destination: "A", inverse: "other")])
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [a, b]) }
        #expect(error?.code == .invalidModel)
        #expect(error?.message.contains("do not point at each other") == true)
    }

    @Test func rejectsDefaultOfTheWrongType() {
        let entity = EntityDescription(
            name: "A", attributes: [AttributeDescription(name: "n", type: .integer64, defaultValue: "ten")])
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
        #expect(error?.key == "n")
        #expect(error?.message.contains("is a String, not a value of type integer64") == true)
    }

    @Test func rejectsIntegerDefaultOutOfRange() {
        let entity = EntityDescription(
            name: "A", attributes: [AttributeDescription(name: "n", type: .integer16, defaultValue: 70_000)])
        #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
    }

    @Test func acceptsIntegerLiteralDefaultsForFloatingPointAttributes() throws {
        let entity = EntityDescription(
            name: "A",
            attributes: [
                AttributeDescription(name: "d", type: .double, defaultValue: 1),
                AttributeDescription(name: "m", type: .decimal, defaultValue: 2),
            ])
        let model = try ManagedObjectModel(entities: [entity])
        #expect(model.entity(named: "A")?.attributes.map(\.defaultValue) == [.double(1), .decimal(2)])
    }

    @Test func rejectsUniquenessConstraintOnUnknownAttribute() {
        let entity = EntityDescription(
            name: "A", attributes: [AttributeDescription(name: "email", type: .string)],
            uniquenessConstraints: [["mail"]])
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
        #expect(error?.key == "mail")
    }

    @Test func rejectsOrderedToOneAndBadCounts() {
        let ordered = EntityDescription(
            name: "A",
            relationships: [RelationshipDescription(name: "a", destination: "A", inverse: nil, isOrdered: true)])
        #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [ordered]) }
        let counts = EntityDescription(
            name: "A",
            relationships: [
                RelationshipDescription(
                    name: "a", destination: "A", inverse: nil, isToMany: true, minCount: 3, maxCount: 2)
            ])
        #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [counts]) }
    }

    @Test func rejectsEmptyNames() {
        #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [EntityDescription(name: "")]) }
        let entity = EntityDescription(name: "A", attributes: [AttributeDescription(name: "", type: .string)])
        #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [entity]) }
    }

    @Test func rejectsOneClassForTwoEntities() {
        let error = #expect(throws: PersistenceError.self) {
            try ManagedObjectModel(entities: [
                EntityDescription(name: "A", managedObjectClass: Tag.self),
                EntityDescription(name: "B", managedObjectClass: Tag.self),
            ])
        }
        #expect(error?.message.contains("use the same class") == true)
    }

    @Test func acceptsRelationshipWithoutInverse() throws {
        let entity = EntityDescription(
            name: "Node", relationships: [RelationshipDescription(name: "next", destination: "Node", inverse: nil)])
        #expect(try ManagedObjectModel(entities: [entity]).entities.count == 1)
    }

    // MARK: - Schema comparison

    @Test func schemaDifferencesListEachChange() throws {
        let old = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Person",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "age", type: .integer16),
                ]),
            EntityDescription(name: "Gone"),
        ])
        let new = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Person",
                attributes: [
                    AttributeDescription(name: "name", type: .string, isIndexed: true),
                    AttributeDescription(name: "age", type: .integer64),
                    AttributeDescription(name: "email", type: .string, isOptional: true),
                ]),
            EntityDescription(name: "New"),
        ])
        let differences = new.schemaDifferences(from: old)
        #expect(differences.count == 4, "\(differences)")
        #expect(differences.contains { $0.contains("'Gone' is in the store but not in the model") })
        #expect(differences.contains { $0.contains("'New' is in the model but not in the store") })
        #expect(differences.contains { $0.contains("'Person.age' is integer64") })
        #expect(differences.contains { $0.contains("'Person.email' is in the model but not in the store") })
        #expect(new.schemaDifferences(from: new).isEmpty)
    }
}
