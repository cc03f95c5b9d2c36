import Foundation
import Testing

@testable import ObjectGraph

@Suite struct ObjectIdentitySetTests {
    private func makeObjects(_ count: Int) throws -> [ManagedObject] {
        let model = TestModels.fruits
        let entity = try #require(model.infos.first { $0.name == "Fruit" }).materializingDescription
        return (0..<count).map { _ in Fruit(entity: entity, insertInto: nil) }
    }

    // MARK: - Membership

    @Test func insertsEachObjectOnceAndIteratesInInsertionOrder() throws {
        let objects = try makeObjects(100)
        var set = ObjectIdentitySet<ManagedObject>()
        #expect(set.isEmpty)
        for object in objects {
            let added = set.insert(object)
            #expect(added)
        }
        for object in objects.reversed() {
            let added = set.insert(object)
            #expect(!added)
        }
        #expect(set.count == 100)
        #expect(Array(set).map(ObjectIdentifier.init) == objects.map(ObjectIdentifier.init))
        for object in objects { #expect(set.contains(object)) }
    }

    @Test func agreesWithASetAfterRandomInsertsAndRemovals() throws {
        let objects = try makeObjects(600)
        var generator = SeededGenerator(seed: 24)
        var set = ObjectIdentitySet<ManagedObject>()
        var reference: [ObjectIdentifier] = []
        for _ in 0..<20_000 {
            let object = objects[Int.random(in: 0..<objects.count, using: &generator)]
            let id = ObjectIdentifier(object)
            if Bool.random(using: &generator) {
                let added = set.insert(object)
                #expect(added == !reference.contains(id))
                if !reference.contains(id) { reference.append(id) }
            } else {
                let removed = set.remove(object)
                #expect(removed == reference.contains(id))
                reference.removeAll { $0 == id }
            }
        }
        #expect(set.count == reference.count)
        // Members removed and inserted again come last, as in the reference.
        #expect(Array(set).map(ObjectIdentifier.init) == reference)
        for object in objects { #expect(set.contains(object) == reference.contains(ObjectIdentifier(object))) }
    }

    @Test func removingEveryMemberLeavesAnEmptySetThatStillWorks() throws {
        let objects = try makeObjects(50)
        var set = ObjectIdentitySet<ManagedObject>()
        let removedFromEmpty = set.remove(objects[0])
        #expect(!removedFromEmpty)
        for object in objects { set.insert(object) }
        for object in objects {
            let removed = set.remove(object)
            #expect(removed)
        }
        #expect(set.isEmpty && Array(set).isEmpty && !set.contains(objects[0]))
        set.insert(objects[3])
        #expect(Array(set).map(ObjectIdentifier.init) == [ObjectIdentifier(objects[3])])
    }

    @Test func aCopyKeepsItsMembersWhenTheOriginalChanges() throws {
        let objects = try makeObjects(40)
        var set = ObjectIdentitySet<ManagedObject>()
        for object in objects.prefix(20) { set.insert(object) }
        let copy = set
        for object in objects.prefix(10) { set.remove(object) }
        for object in objects.suffix(20) { set.insert(object) }
        #expect(copy.count == 20 && set.count == 30)
        #expect(Array(copy).map(ObjectIdentifier.init) == objects.prefix(20).map(ObjectIdentifier.init))
        #expect(copy.contains(objects[0]) && !set.contains(objects[0]))
    }
}
