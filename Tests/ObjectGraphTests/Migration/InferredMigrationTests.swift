import Foundation
import ObjectGraph
import Testing

@Suite struct InferredMigrationTests {
    // MARK: - Every inferred change, on every store

    @Test(arguments: MigrationStoreKind.allCases)
    func renamesWideningsAndNewPropertiesKeepEveryValue(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let container = try fixture.open(try PeopleV2.model())
        let context = container.newContext()
        let people = try fetchAll("Human", context, sortedBy: "fullName")
        #expect(try people.map { try $0.value(forKey: "fullName") as? String } == ["Ada", "Brian", "Cleo"])
        #expect(try people.map { try $0.value(forKey: "age") as? Int64 } == [36, 29, 41])
        #expect(try people.map { try $0.value(forKey: "score") as? Double } == [90, nil, 75])
        #expect(try people.map { try $0.value(forKey: "height") as? Double } == [1.5, 1.5, 1.5])
        #expect(try people.map { try $0.value(forKey: "nickname") as? String } == ["ada", "none", "cleo"])
        #expect(try people.map { try $0.value(forKey: "balance") as? Decimal } == [1000, 1000, 1000])
        #expect(try people.map { try $0.value(forKey: "bio") as? String } == [nil, nil, nil])
        #expect(try people.map { try $0.value(forKey: "level") as? Int64 } == [1, 1, 1])
        #expect(people.map(\.objectID.entityName) == ["Human", "Human", "Human"])
        #expect(people.map(\.objectID.key) == [1, 2, 3])
        let ada = try #require(people.first)
        let adaPets = try #require(try ada.value(forKey: "companions") as? Set<ManagedObject>)
        #expect(Set(try adaPets.map { try $0.value(forKey: "name") as? String }) == ["Rex", "Tom"])
        let fido = try #require(try fetchAll("Pet", context, "name == 'Fido'").first)
        #expect((try fido.value(forKey: "keeper") as? ManagedObject)?.objectID == people[1].objectID)
        #expect((try fido.value(forKey: "toys") as? Set<ManagedObject>)?.isEmpty == true)
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func predicatesRunOnTheMigratedData(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let context = try fixture.open(try PeopleV2.model()).newContext()
        let names = { (entity: String, format: String, key: String) in
            try fetchAll(entity, context, format, sortedBy: key).map { try $0.value(forKey: key) as? String }
        }
        #expect(try names("Human", "fullName BEGINSWITH 'A' AND age > 30", "fullName") == ["Ada"])
        #expect(try names("Human", "ANY companions.name == 'Fido'", "fullName") == ["Brian"])
        #expect(try names("Human", "score > 80.5 OR nickname == 'none'", "fullName") == ["Ada", "Brian"])
        #expect(try names("Pet", "keeper.age >= 36", "name") == ["Rex", "Tom"])
        #expect(try names("Human", "companions.@count == 0", "fullName") == ["Cleo"])
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func migratedStoreTakesNewObjectsAndReopensWithoutMigrating(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        do {
            let context = try fixture.open(try PeopleV2.model()).newContext()
            let rex = try #require(try fetchAll("Pet", context, "name == 'Rex'").first)
            let ball = insert("Toy", into: context)
            try ball.setValue("ball", forKey: "name")
            try ball.setValue(rex, forKey: "pet")
            let dana = insert("Human", into: context)
            try dana.setValue("Dana", forKey: "fullName")
            try dana.setValue(Int64(70_000), forKey: "age")
            try context.save()
            #expect(dana.objectID.key == 4, "keys go on from the stored next key")
        }
        let written = try fixture.bytes()
        let context = try fixture.open(try PeopleV2.model(), .disabled).newContext()
        #expect(try fixture.bytes() == written, "a second open finds nothing to migrate")
        #expect(try fetchAll("Human", context, sortedBy: "fullName").count == 4)
        let ball = try #require(try fetchAll("Toy", context).first)
        #expect(
            try (ball.value(forKey: "pet") as? ManagedObject)?.value(forKey: "name") as? String == "Rex")
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func removedEntitiesAndPropertiesAreDropped(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let smaller = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Person",
                attributes: [
                    AttributeDescription(name: "age", type: .integer32),
                    AttributeDescription(name: "name", type: .string),
                ])
        ])
        let context = try fixture.open(smaller).newContext()
        let people = try fetchAll("Person", context)
        #expect(try people.map { try $0.value(forKey: "age") as? Int32 } == [36, 29, 41])
        #expect(throws: PersistenceError.self) { try people[0].value(forKey: "pets") }
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func toOneBecomesToManyAndBack(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        var entities = try PeopleV1.model().entities
        entities[1].relationships[0].isToMany = true
        entities[0].relationships[0].isToMany = true
        let manyToMany = try ManagedObjectModel(entities: entities)
        do {
            let context = try fixture.open(manyToMany).newContext()
            let fido = try #require(try fetchAll("Pet", context, "name == 'Fido'").first)
            let owners = try #require(try fido.value(forKey: "owner") as? Set<ManagedObject>)
            #expect(try owners.map { try $0.value(forKey: "name") as? String } == ["Brian"])
        }
        let context = try fixture.open(try PeopleV1.model()).newContext()
        let fido = try #require(try fetchAll("Pet", context, "name == 'Fido'").first)
        #expect(try (fido.value(forKey: "owner") as? ManagedObject)?.value(forKey: "name") as? String == "Brian")
    }

    @Test(arguments: MigrationStoreKind.allCases)
    func newInverseIsFilledFromTheExistingSide(kind: MigrationStoreKind) throws {
        let fixture = MigrationFixture(kind)
        var entities = try PeopleV1.model().entities
        entities[0].relationships = []
        entities[1].relationships[0].inverse = nil
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        // Down to pets that know their owner, and back up to people that list their pets.
        _ = try fixture.open(try ManagedObjectModel(entities: entities))
        let context = try fixture.open(try PeopleV1.model()).newContext()
        let ada = try #require(try fetchAll("Person", context, "name == 'Ada'").first)
        let pets = try #require(try ada.value(forKey: "pets") as? Set<ManagedObject>)
        #expect(Set(try pets.map { try $0.value(forKey: "name") as? String }) == ["Rex", "Tom"])
    }

    @Test func typedClassesDeclareRenames() throws {
        let fixture = MigrationFixture(.json)
        try PeopleV1.seed(try fixture.open(try PeopleV1.model()))
        let context = try fixture.open(try ManagedObjectModel(RenamedPerson.self, RenamedPet.self)).newContext()
        var request = RenamedPerson.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "fullName")]
        let people = try context.fetch(request)
        #expect(people.map(\.fullName) == ["Ada", "Brian", "Cleo"])
        #expect(Set(people[0].companions.map(\.name)) == ["Rex", "Tom"])
        #expect(people[0].companions.first?.keeper === people[0])
    }
}

final class RenamedPerson: ManagedObject {
    override class var entityName: String { "Human" }
    override class var renamingIdentifier: String? { "Person" }
    @Attribute(renamingIdentifier: "name") var fullName = ""
    @Attribute var age: Int64 = 0
    @Relationship(inverse: "keeper", renamingIdentifier: "pets") var companions: Set<RenamedPet>
}

final class RenamedPet: ManagedObject {
    override class var entityName: String { "Pet" }
    @Attribute var name = ""
    @Relationship(inverse: "companions", renamingIdentifier: "owner") var keeper: RenamedPerson?
}
