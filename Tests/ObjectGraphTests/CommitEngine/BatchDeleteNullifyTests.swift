import ObjectGraph
import ObjectGraphTesting
import Testing

/// A batch delete rewrites each surviving row its `nullify` rules reach once, however many
/// deleted objects leave it (the sources of a slot are gathered, sorted by row and slot; up to
/// eight are compared in turn, more through a set).
/// A mentor whose mentees lose their mentor when it is deleted; `BatchMentorEmployee` is a
/// sub-entity, so a batch delete of `BatchMentor` deletes each entity's members in turn.
class BatchMentor: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "mentees") var mentor: BatchMentor?
    @Relationship(inverse: "mentor", deleteRule: .nullify) var mentees: Set<BatchMentor>
}

final class BatchMentorEmployee: BatchMentor {}

@Suite struct BatchDeleteNullifyTests {
    private func makeTeam(members count: Int) throws -> (PersistentContainer, ManagedContext, BatchParent) {
        let model = try ManagedObjectModel(BatchParent.self, BatchChild.self, BatchMember.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let parent = BatchParent(context: context)
        for index in 0..<count {
            let member = BatchMember(context: context)
            member.name = "m\(index)"
            member.team = parent
        }
        try context.save()
        return (container, context, parent)
    }

    @Test(arguments: [3, 10])
    func aSurvivorLosesEveryDeletedSourceAndKeepsTheRest(deleted: Int) throws {
        let (container, context, parent) = try makeTeam(members: 12)
        let deletedNames = Set((0..<deleted).map { "m\($0)" })
        let result = try context.execute(
            BatchDeleteRequest(
                BatchMember.self, predicate: try FetchPredicate(format: "name IN %@", Array(deletedNames))))
        #expect(result.count == deleted)
        #expect(result.notification.updatedObjectIDs == [parent.objectID])
        let reader = container.newContext()
        let team = try #require(try reader.fetch(BatchParent.fetchRequest()).first)
        #expect(Set(team.members.map(\.name)) == Set((deleted..<12).map { "m\($0)" }))
        #expect(try reader.count(for: BatchMember.fetchRequest()) == 12 - deleted)
    }

    /// Alice (a `BatchMentor`) is deleted first and nullifies Bob (a `BatchMentorEmployee`),
    /// whom the same request deletes next: Bob is deleted, not written back as an update.
    @Test(arguments: [true, false])
    func anObjectNullifiedByOneMemberOfAFamilyAndDeletedByAnotherStaysDeleted(bobHasAMentee: Bool) throws {
        let model = try ManagedObjectModel(BatchMentor.self, BatchMentorEmployee.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let alice = BatchMentor(context: context)
        alice.name = "Alice"
        let bob = BatchMentorEmployee(context: context)
        bob.name = "Bob"
        bob.mentor = alice
        let carol = BatchMentorEmployee(context: context)
        carol.name = "Carol"
        carol.mentor = bobHasAMentee ? bob : nil
        try context.save()
        let result = try context.execute(
            BatchDeleteRequest(BatchMentor.self, predicate: try FetchPredicate(format: "name != %@", "Carol")))
        #expect(result.count == 2)
        let reader = container.newContext()
        #expect(try reader.fetch(BatchMentor.fetchRequest()).map(\.name) == ["Carol"])
        #expect(try reader.count(for: BatchMentorEmployee.fetchRequest()) == 1)
        #expect(!result.notification.updatedObjectIDs.contains(bob.objectID))
    }
}
