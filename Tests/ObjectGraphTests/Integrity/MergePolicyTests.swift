import Foundation
import ObjectGraph
import Testing

@Suite struct MergePolicyTests {
    /// Two contexts edit the same saved person; the second saves under `policy`.
    private func conflict(
        _ policy: MergePolicy, first: (Person) -> Void, second: (Person) -> Void
    ) throws -> (error: PersistenceError?, stored: Person?, context: ManagedContext, loser: Person) {
        let container = try makeIntegrityContainer()
        let setup = container.newContext()
        let original = makePerson(setup, "Ada", "Lovelace", email: "ada@example.com")
        original.age = 36
        try setup.save()
        let a = container.newContext()
        let b = container.newContext()
        b.mergePolicy = policy
        let mine = try #require(try a.existingObject(with: original.objectID) as? Person)
        let theirs = try #require(try b.existingObject(with: original.objectID) as? Person)
        first(mine)
        try a.save()
        second(theirs)
        var failure: PersistenceError?
        do { try b.save() } catch let error as PersistenceError { failure = error }
        let stored = try container.newContext().existingObject(with: original.objectID) as? Person
        return (failure, stored, b, theirs)
    }

    @Test func errorPolicyRefusesAndChangesNothing() throws {
        let result = try conflict(.error, first: { $0.age = 40 }, second: { $0.name = "Countess" })
        #expect(result.error?.code == .conflict)
        #expect(result.stored?.age == 40 && result.stored?.name == "Ada Lovelace")
        #expect(result.loser.name == "Countess" && result.loser.isUpdated && result.context.hasChanges)
    }

    @Test func objectTrumpOverwritesEverything() throws {
        let result = try conflict(.objectTrump, first: { $0.age = 40 }, second: { $0.name = "Countess" })
        #expect(result.error == nil)
        #expect(result.stored?.name == "Countess" && result.stored?.age == 36)
        #expect(result.loser.managedObjectContext === result.context && !result.context.hasChanges)
    }

    @Test func storeTrumpDropsThisContextsChange() throws {
        let result = try conflict(.storeTrump, first: { $0.age = 40 }, second: { $0.name = "Countess" })
        #expect(result.error == nil)
        #expect(result.stored?.name == "Ada Lovelace" && result.stored?.age == 40)
        #expect(result.loser.name == "Ada Lovelace" && result.loser.age == 40)
        #expect(result.loser.managedObjectContext === result.context && !result.context.hasChanges)
    }

    @Test func propertyMergeKeepsTheOtherContextsUntouchedKeys() throws {
        let result = try conflict(.mergeByPropertyObjectTrump, first: { $0.age = 40 }, second: { $0.name = "Countess" })
        #expect(result.error == nil)
        #expect(result.stored?.name == "Countess" && result.stored?.age == 40)
        #expect(result.loser.age == 40)
    }

    @Test func propertyMergeResolvesKeysBothChangedByPolicy() throws {
        let objectWins = try conflict(.mergeByPropertyObjectTrump, first: { $0.age = 40 }, second: { $0.age = 50 })
        #expect(objectWins.stored?.age == 50)
        let storeWins = try conflict(
            .mergeByPropertyStoreTrump, first: { $0.age = 40 },
            second: {
                $0.age = 50
                $0.name = "Countess"
            })
        #expect(storeWins.stored?.age == 40 && storeWins.stored?.name == "Countess")
    }

    @Test func updateOfAnObjectDeletedElsewhere() throws {
        for policy in MergePolicy.allCases {
            let container = try makeIntegrityContainer()
            let setup = container.newContext()
            let person = makePerson(setup, "Ada", "Lovelace")
            try setup.save()
            let b = container.newContext()
            b.mergePolicy = policy
            let theirs = try #require(try b.existingObject(with: person.objectID) as? Person)
            setup.delete(person)
            try setup.save()
            theirs.age = 99
            let saved = Result { try b.save() }
            let count = try container.newContext().count(for: Person.fetchRequest())
            switch policy {
            case .error: #expect((try? saved.get()) == nil && count == 0)
            case .objectTrump, .mergeByPropertyObjectTrump: #expect(count == 1, "\(policy)")
            case .storeTrump, .mergeByPropertyStoreTrump: #expect(count == 0 && theirs.isDeleted, "\(policy)")
            }
        }
    }

    @Test func deleteOfAnObjectChangedElsewhere() throws {
        for policy in MergePolicy.allCases {
            let container = try makeIntegrityContainer()
            let setup = container.newContext()
            let person = makePerson(setup, "Ada", "Lovelace")
            try setup.save()
            let b = container.newContext()
            b.mergePolicy = policy
            let theirs = try #require(try b.existingObject(with: person.objectID) as? Person)
            person.age = 41
            try setup.save()
            b.delete(theirs)
            _ = try? b.save()
            let count = try container.newContext().count(for: Person.fetchRequest())
            #expect(count == (policy.rawValue.contains("ObjectTrump") || policy == .objectTrump ? 0 : 1), "\(policy)")
        }
    }
}

@Suite struct UniquenessTests {
    @Test func duplicateIsAConflictNamingBothObjects() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let first = makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
        try context.save()
        let second = makePerson(context, "Augusta", "King", email: "ada@example.com")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(error?.objectID == second.objectID)
        #expect(error?.message.contains(first.objectID.description) == true)
        #expect(second.isInserted && context.hasChanges)
        #expect(try container.newContext().count(for: Person.fetchRequest()) == 1)
    }

    @Test func compoundConstraintAndNilValues() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        makePerson(context, "Ada", "Lovelace")
        makePerson(context, "Ada", "Byron")
        makePerson(context, "Bob", "Lovelace")
        try context.save()
        makePerson(context, "Ada", "Byron")
        #expect(throws: PersistenceError.self) { try context.save() }
    }

    @Test func duplicatesWithinOneSave() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        makePerson(context, "A", "B", email: "same@example.com")
        makePerson(context, "C", "D", email: "same@example.com")
        #expect(throws: PersistenceError.self) { try context.save() }
        context.mergePolicy = .objectTrump
        try context.save()
        #expect(try container.newContext().count(for: Person.fetchRequest()) == 1)
    }

    @Test func objectTrumpMergesTheNewValuesIntoTheStoredObject() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let stored = makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
        stored.age = 36
        try context.save()
        let other = container.newContext()
        other.mergePolicy = .objectTrump
        let incoming = makePerson(other, "Augusta", "King", email: "ada@example.com")
        incoming.age = 37
        let club = Club(context: other)
        incoming.clubs = [club]
        try other.save()
        #expect(incoming.objectID == stored.objectID)
        let fresh = container.newContext()
        let people = try fresh.fetch(Person.fetchRequest())
        #expect(people.count == 1)
        #expect(people[0].objectID == stored.objectID && people[0].age == 37 && people[0].firstName == "Augusta")
        #expect(people[0].clubs.count == 1)
        #expect(try fresh.fetch(Club.fetchRequest()).first?.members.first?.objectID == stored.objectID)
    }

    @Test func storeTrumpKeepsTheStoredValuesAndDiscardsTheNewObject() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let stored = makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
        try context.save()
        context.mergePolicy = .storeTrump
        let incoming = makePerson(context, "Augusta", "King", email: "ada@example.com")
        try context.save()
        #expect(incoming.managedObjectContext == nil)
        #expect(stored.firstName == "Ada" && !context.hasChanges)
        let people = try container.newContext().fetch(Person.fetchRequest())
        #expect(people.map(\.firstName) == ["Ada"])
    }

    @Test func updateThatCollidesIsAlwaysAConflict() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        context.mergePolicy = .objectTrump
        makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
        let bob = makePerson(context, "Bob", "B", email: "bob@example.com")
        try context.save()
        bob.email = "ada@example.com"
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict && error?.objectID == bob.objectID)
        bob.email = "bob@example.org"
        try context.save()
        bob.email = "bob@example.com"
        try context.save()
    }
}

@Suite struct UniquenessMergeTests {
    @Test func aMergeThatBreaksAnotherConstraintIsAConflict() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        makePerson(context, "Ada", "Lovelace", email: "ada@example.com")
        makePerson(context, "Grace", "Hopper", email: "grace@example.com")
        try context.save()
        context.mergePolicy = .objectTrump
        // Same email as Ada, same name as Grace: merging into Ada would give Ada Grace's name.
        makePerson(context, "Grace", "Hopper", email: "ada@example.com")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(try container.newContext().count(for: Person.fetchRequest()) == 2)
    }
}
