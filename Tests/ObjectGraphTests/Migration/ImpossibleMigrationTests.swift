import Foundation
import ObjectGraph
import Testing

@Suite struct ImpossibleMigrationTests {
    /// Seeds version 1, changes it with `change`, and expects opening to fail naming
    /// `entity.key`, leaving the store as it was (byte for byte, no temporary files).
    private func expectImpossible(
        _ kind: MigrationStoreKind, entity: String = "Person", key: String, messageContains text: String,
        uniqueEmail: Bool = false, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout [EntityDescription]) -> Void
    ) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        var entities = try PeopleV1.model(uniqueEmail: uniqueEmail).entities
        change(&entities)
        let changed = try ManagedObjectModel(entities: entities)
        let before = try fixture.bytes()
        let error = #expect(throws: PersistenceError.self, sourceLocation: sourceLocation) {
            try fixture.open(changed)
        }
        #expect(error?.code == .modelMismatch, sourceLocation: sourceLocation)
        #expect(error?.entityName == entity, sourceLocation: sourceLocation)
        #expect(error?.key == key, sourceLocation: sourceLocation)
        #expect(error?.message.contains(text) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
        #expect(try fixture.bytes() == before, "the file is left byte for byte", sourceLocation: sourceLocation)
        #expect(try fixture.temporaryFiles().isEmpty, sourceLocation: sourceLocation)
        let context = try fixture.open(try PeopleV1.model()).newContext()
        #expect(try fetchAll("Person", context).count == 3, sourceLocation: sourceLocation)
        #expect(try fetchAll("Pet", context).count == 3, sourceLocation: sourceLocation)
    }

    // MARK: - Changes the schema alone rules out

    @Test(arguments: MigrationStoreKind.allCases)
    func narrowingAnIntegerFails(kind: MigrationStoreKind) throws {
        try expectImpossible(kind, key: "balance", messageContains: "integer64 to integer16") {
            $0[0].attributes[6].type = .integer16
        }
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func aTypeChangeThatCannotConvertFails(kind: MigrationStoreKind) throws {
        try expectImpossible(kind, key: "name", messageContains: "cannot be converted") {
            $0[0].attributes[0].type = .date
        }
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func aRelationshipToAnotherEntityFails(kind: MigrationStoreKind) throws {
        try expectImpossible(kind, entity: "Pet", key: "owner", messageContains: "instead of 'Person'") {
            $0[1].relationships[0] = RelationshipDescription(name: "owner", destination: "Pet", inverse: nil)
            $0[0].relationships = []
        }
    }

    // MARK: - Changes the data rules out, counted

    @Test(arguments: MigrationStoreKind.allCases)
    func aNewRequiredAttributeWithoutADefaultFails(kind: MigrationStoreKind) throws {
        try expectImpossible(kind, key: "rank", messageContains: "3 stored objects") {
            $0[0].attributes.append(AttributeDescription(name: "rank", type: .integer64))
        }
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func optionalToRequiredWithNilsAndNoDefaultFails(kind: MigrationStoreKind) throws {
        try expectImpossible(kind, key: "nickname", messageContains: "1 stored object have no value") {
            $0[0].attributes[4].isOptional = false
        }
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func toManyToToOneFailsWhenAnObjectHoldsSeveral(kind: MigrationStoreKind) throws {
        try expectImpossible(kind, key: "pets", messageContains: "1 stored object holds more than one") {
            $0[0].relationships[0].isToMany = false
            $0[0].relationships[0].deleteRule = .nullify
        }
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func aNewUniquenessConstraintFailsListingTheDuplicates(kind: MigrationStoreKind) throws {
        try expectImpossible(
            kind, key: "email",
            messageContains: "2 stored objects break, in 1 group sharing values: [Person/1, Person/3]",
            uniqueEmail: true
        ) { _ in }
    }

    @Test func everyProblemIsListed() throws {
        let fixture = MigrationFixture(.json)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        var entities = try PeopleV1.model().entities
        entities[0].attributes[0].type = .date
        entities[0].attributes[6].type = .integer16
        let error = #expect(throws: PersistenceError.self) {
            try fixture.open(try ManagedObjectModel(entities: entities))
        }
        let keys = error?.detailedErrors.compactMap(\.key)
        #expect(keys == ["name", "balance"])
    }
}
