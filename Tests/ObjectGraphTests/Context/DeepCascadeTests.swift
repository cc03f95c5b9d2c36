import Foundation
import ObjectGraph
import Testing

/// A link of a long chain: deleting a link deletes the rest of the chain after it.
final class ChainLink: ManagedObject {
    @Attribute var position: Int64 = 0
    @Relationship(inverse: "previous", deleteRule: .cascade) var next: ChainLink?
    @Relationship(inverse: "next") var previous: ChainLink?
}

/// A chain link whose deletes need no instances (deferred deletes).
final class LightChainLink: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Attribute var position: Int64 = 0
    @Relationship(inverse: "previous", deleteRule: .cascade) var next: LightChainLink?
    @Relationship(inverse: "next") var previous: LightChainLink?
}

/// A cascade through a chain far deeper than a thread's stack could hold one call per link
/// deletes the whole chain, whichever way the context deletes it.
@Suite struct DeepCascadeTests {
    static let length = 50_000
    static let model = try! ManagedObjectModel(ChainLink.self, LightChainLink.self)

    /// A saved chain of `length` links of `Link`; returns the container.
    private func savedChain<Link: ManagedObject>(of type: Link.Type) throws -> PersistentContainer {
        let container = try PersistentContainer(model: Self.model, store: InMemoryStore())
        let context = container.newContext()
        var previous: ManagedObject?
        for position in 0..<Self.length {
            let link = Link(context: context)
            try link.setValue(Int64(position), forKey: "position")
            if let previous { try link.setValue(previous, forKey: "previous") }
            previous = link
        }
        try context.save()
        return container
    }

    /// Deletes the first link of `Link`'s chain in `context` and saves; expects every link gone.
    private func deleteHead<Link: ManagedObject>(
        of type: Link.Type, in context: ManagedContext, container: PersistentContainer
    ) throws {
        var request = FetchRequest<Link>(entityName: Link.entityName)
        request.predicate = try FetchPredicate(format: "position == 0")
        let head = try #require(try context.fetch(request).first)
        context.delete(head)
        #expect(context.deletedObjects.count == Self.length)
        try context.save()
        let check = container.newContext()
        #expect(try check.count(for: FetchRequest<Link>(entityName: Link.entityName)) == 0)
    }

    @Test func aCascadeThroughRegisteredObjectsDeletesTheWholeChain() throws {
        let container = try savedChain(of: ChainLink.self)
        let context = container.newContext()
        // Every link registered: the cascade runs through objects.
        _ = try context.fetch(FetchRequest<ChainLink>(entityName: ChainLink.entityName))
        try deleteHead(of: ChainLink.self, in: context, container: container)
    }

    @Test func aCascadeThroughUnregisteredObjectsDeletesTheWholeChain() throws {
        let container = try savedChain(of: ChainLink.self)
        try deleteHead(of: ChainLink.self, in: container.newContext(), container: container)
    }

    @Test func aCascadeThroughDeferredDeletesDeletesTheWholeChain() throws {
        let container = try savedChain(of: LightChainLink.self)
        try deleteHead(of: LightChainLink.self, in: container.newContext(), container: container)
    }

    @Test func anUnsavedChainIsDeletedWhole() throws {
        let container = try PersistentContainer(model: Self.model, store: InMemoryStore())
        let context = container.newContext()
        let head = ChainLink(context: context)
        var previous = head
        for position in 1..<Self.length {
            let link = ChainLink(context: context)
            link.position = Int64(position)
            link.previous = previous
            previous = link
        }
        context.delete(head)
        #expect(context.insertedObjects.isEmpty)
        #expect(!context.hasChanges)
    }
}
