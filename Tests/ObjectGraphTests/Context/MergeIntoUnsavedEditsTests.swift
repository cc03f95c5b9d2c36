import Foundation
import ObjectGraph
import Testing

/// Another context's saved inserts, updates and deletes merged into a context that holds unsaved
/// edits of its own, then that context saves: for each merge policy, explicitly and automatically.
///
/// Merging reloads what the other save changed and keeps this context's own edits on top (like
/// Core Data's `refresh(_:mergeChanges: true)`), so merged changes are never a conflict: the
/// policy decides only saves that were not merged yet, and inserted duplicates.
@Suite struct MergeIntoUnsavedEditsTests {
    /// The objects of the scene, as `mine` holds them.
    private struct Scene {
        let container: PersistentContainer
        let mine: ManagedContext
        let other: ManagedContext
        let ada: Person
        let bob: Person
        let cy: Person
        let di: Person
        let eve: Person
    }

    /// Four saved people; `mine` renames Ada and changes her age, changes Di's age, deletes Bob
    /// and inserts Eve, all unsaved.
    private func makeScene(_ policy: MergePolicy, automatic: Bool) throws -> Scene {
        let container = try makeIntegrityContainer()
        let setup = container.newContext()
        let people = [("Ada", "Lovelace", 36), ("Bob", "Byron", 20), ("Cy", "Young", 30), ("Di", "Prince", 40)].map {
            let person = makePerson(setup, $0.0, $0.1, email: "\($0.0.lowercased())@example.com")
            person.age = Int16($0.2)
            return person
        }
        try setup.save()
        let mine = container.newContext()
        mine.mergePolicy = policy
        mine.automaticallyMergesChanges = automatic
        let held = try people.map { try #require(try mine.existingObject(with: $0.objectID) as? Person) }
        held[0].name = "Countess"
        held[0].age = 50
        held[3].age = 44
        mine.delete(held[1])
        let eve = makePerson(mine, "Eve", "Adams", email: "eve@example.com")
        eve.age = 25
        return Scene(
            container: container, mine: mine, other: container.newContext(),
            ada: held[0], bob: held[1], cy: held[2], di: held[3], eve: eve)
    }

    /// The other context's save: Ada's age and last name, Bob's age, Cy and Di deleted, Fay
    /// inserted.
    private func otherSave(_ scene: Scene) throws {
        let other = scene.other
        let ada = try #require(try other.existingObject(with: scene.ada.objectID) as? Person)
        ada.age = 40
        ada.lastName = "King"
        try #require(try other.existingObject(with: scene.bob.objectID) as? Person).age = 21
        other.delete(try other.existingObject(with: scene.cy.objectID))
        other.delete(try other.existingObject(with: scene.di.objectID))
        makePerson(other, "Fay", "Wray", email: "fay@example.com").age = 60
        try other.save()
    }

    /// Merges the other context's save into `mine`: explicitly, or by its next fetch.
    private func merge(_ scene: Scene, automatic: Bool, save: () throws -> Void) async throws {
        var saves = scene.container.saves.makeAsyncIterator()
        try save()
        let notification = try #require(await saves.next())
        if automatic {
            _ = try scene.mine.count(for: Person.fetchRequest())
        } else {
            scene.mine.mergeChanges(from: notification)
        }
    }

    /// Every stored person as "first last, name, age", sorted, read by a fresh context.
    private func stored(_ scene: Scene) throws -> [String] {
        let fresh = scene.container.newContext()
        return try fresh.fetch(Person.fetchRequest()).map { "\($0.firstName) \($0.lastName), \($0.name), \($0.age)" }
            .sorted()
    }

    @Test(arguments: MergePolicy.allCases, [false, true])
    func mergedChangesKeepOwnEditsThenSave(policy: MergePolicy, automatic: Bool) async throws {
        let scene = try makeScene(policy, automatic: automatic)
        try await merge(scene, automatic: automatic) { try otherSave(scene) }
        let mine = scene.mine

        // Updates: own keys keep own values, the other keys take the other save's.
        #expect(scene.ada.name == "Countess" && scene.ada.age == 50 && scene.ada.lastName == "King")
        #expect(scene.ada.isUpdated && mine.updatedObjects == [scene.ada])
        // Own delete of an object updated elsewhere stays pending, over the merged values.
        #expect(scene.bob.isDeleted && scene.bob.age == 21 && mine.deletedObjects == [scene.bob])
        // Deleted elsewhere: reports isDeleted, stays readable; own edit of Di is dropped.
        #expect(scene.cy.isDeleted && scene.cy.name == "Cy Young")
        #expect(scene.di.isDeleted && !scene.di.hasChanges)
        // Inserts: own insert pending, the other's fetchable.
        #expect(mine.insertedObjects == [scene.eve])
        let names = try mine.fetch(Person.fetchRequest()).map(\.name).sorted()
        #expect(names == ["Countess", "Eve Adams", "Fay Wray"])

        try mine.save()
        #expect(!mine.hasChanges && scene.ada.age == 50 && scene.ada.lastName == "King")
        #expect(
            try stored(scene) == [
                "Ada King, Countess, 50", "Eve Adams, Eve Adams, 25", "Fay Wray, Fay Wray, 60",
            ])
    }

    /// A second save elsewhere, not merged yet, decides by the policy.
    @Test(arguments: MergePolicy.allCases)
    func unmergedSaveAfterAMergeIsResolvedByPolicy(policy: MergePolicy) async throws {
        let scene = try makeScene(policy, automatic: false)
        try await merge(scene, automatic: false) { try otherSave(scene) }
        let other = scene.other
        let otherAda = try #require(try other.existingObject(with: scene.ada.objectID) as? Person)
        otherAda.age = 60
        otherAda.firstName = "Augusta"
        try #require(try other.existingObject(with: scene.bob.objectID) as? Person).age = 22
        try other.save()

        let result = Result { try scene.mine.save() }
        let bobKept = "Bob Byron, Bob Byron, 22"
        let eve = "Eve Adams, Eve Adams, 25"
        let fay = "Fay Wray, Fay Wray, 60"
        let expected: [String]
        switch policy {
        case .error:
            expected = ["Augusta King, Ada Lovelace, 60", bobKept, fay]
        case .objectTrump:
            expected = ["Ada King, Countess, 50", eve, fay]
        case .storeTrump:
            expected = ["Augusta King, Ada Lovelace, 60", bobKept, eve, fay]
        case .mergeByPropertyObjectTrump:
            expected = ["Augusta King, Countess, 50", eve, fay]
        case .mergeByPropertyStoreTrump:
            expected = ["Augusta King, Countess, 60", bobKept, eve, fay]
        }
        #expect(try stored(scene) == expected.sorted(), "\(policy)")
        if policy == .error {
            #expect(throws: PersistenceError.self) { try result.get() }
            #expect(scene.mine.hasChanges && scene.ada.name == "Countess" && scene.eve.isInserted)
            #expect(scene.bob.isDeleted && scene.ada.age == 50)
        } else {
            try result.get()
            #expect(!scene.mine.hasChanges)
            let ada = scene.ada
            #expect("\(ada.firstName) \(ada.lastName), \(ada.name), \(ada.age)" == expected[0], "\(policy)")
            let bobStays = policy == .storeTrump || policy == .mergeByPropertyStoreTrump
            #expect(scene.bob.isDeleted == !bobStays, "\(policy)")
        }
    }

    /// The other context inserted a duplicate of this context's unsaved insert.
    @Test(arguments: MergePolicy.allCases, [false, true])
    func mergedInsertDuplicatingAnOwnInsert(policy: MergePolicy, automatic: Bool) async throws {
        let scene = try makeScene(policy, automatic: automatic)
        try await merge(scene, automatic: automatic) {
            makePerson(scene.other, "Evelyn", "Hugo", email: "eve@example.com").age = 70
            try scene.other.save()
        }
        let before = try stored(scene)
        let result = Result { try scene.mine.save() }
        let cy = "Cy Young, Cy Young, 30"
        switch policy {
        case .error:
            let error = try #require(throws: PersistenceError.self) { try result.get() }
            #expect(error.code == .conflict)
            #expect(try stored(scene) == before)
            #expect(scene.eve.isInserted && scene.mine.hasChanges)
        case .objectTrump, .mergeByPropertyObjectTrump:
            try result.get()
            let expected = ["Ada Lovelace, Countess, 50", "Di Prince, Di Prince, 44", "Eve Adams, Eve Adams, 25"]
            #expect(try stored(scene) == (expected + [cy]).sorted(), "\(policy)")
        case .storeTrump, .mergeByPropertyStoreTrump:
            try result.get()
            let expected = ["Ada Lovelace, Countess, 50", "Di Prince, Di Prince, 44", "Evelyn Hugo, Evelyn Hugo, 70"]
            #expect(try stored(scene) == (expected + [cy]).sorted(), "\(policy)")
        }
        #expect(try scene.mine.count(for: Person.fetchRequest()) == (policy == .error ? 5 : 4))
    }
}
