import ObjectGraph
import Testing

final class RuleRoot: ManagedObject {
    @Attribute var n: Int64 = 0
    @Relationship(inverse: "root", deleteRule: .cascade) var leaves: Set<RuleLeaf>
    @Relationship(inverse: "roots") var tag: RuleTag?
}

final class RuleLeaf: ManagedObject {
    @Attribute var n: Int64 = 0
    @Relationship(inverse: "leaves") var root: RuleRoot?
    @Relationship(inverse: "leaf", deleteRule: .cascade) var notes: Set<RuleNote>
    @Relationship(inverse: "leaves", deleteRule: .noAction) var tag: RuleTag?
}

final class RuleNote: ManagedObject {
    @Attribute var n: Int64 = 0
    @Relationship(inverse: "notes") var leaf: RuleLeaf?
}

final class RuleTag: ManagedObject {
    @Attribute var n: Int64 = 0
    @Relationship(inverse: "tag") var roots: Set<RuleRoot>
    @Relationship(inverse: "tag") var leaves: Set<RuleLeaf>
}

/// Context deletes and batch deletes apply the delete rules through one decision
/// (`DeleteRuleActions`): on the same graph they must leave the same objects and relationships.
@Suite struct DeleteRuleAgreementTests {
    private static let model = try! ManagedObjectModel(RuleRoot.self, RuleLeaf.self, RuleNote.self, RuleTag.self)

    /// A small deterministic generator, so that both containers get the same graph.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func makeGraph(seed: UInt64) throws -> PersistentContainer {
        let container = try PersistentContainer(model: Self.model, storeDescription: .inMemory)
        let context = container.newContext()
        var random = Generator(state: seed)
        let tags = (0..<3).map { index -> RuleTag in
            let tag = RuleTag(context: context)
            tag.n = Int64(index)
            return tag
        }
        var counter: Int64 = 0
        for _ in 0..<(4 + random.next(8)) {
            let root = RuleRoot(context: context)
            counter += 1
            root.n = counter
            if random.next(3) > 0 { root.tag = tags[random.next(tags.count)] }
            for _ in 0..<random.next(4) {
                let leaf = RuleLeaf(context: context)
                counter += 1
                leaf.n = counter
                if random.next(2) == 0 { leaf.root = root }
                if random.next(2) == 0 { leaf.tag = tags[random.next(tags.count)] }
                for _ in 0..<random.next(3) {
                    let note = RuleNote(context: context)
                    counter += 1
                    note.n = counter
                    note.leaf = leaf
                }
            }
        }
        try context.save()
        return container
    }

    /// Every surviving object with the `n` of the objects it relates to, in a stable order.
    private func describe(_ container: PersistentContainer) throws -> [String] {
        let context = container.newContext()
        func ns<T: ManagedObject>(_ objects: some Sequence<T>, _ n: (T) -> Int64) -> String {
            objects.map(n).sorted().map(String.init).joined(separator: ",")
        }
        var lines: [String] = []
        for root in try context.fetch(RuleRoot.fetchRequest()) {
            lines.append("root \(root.n) tag=\(root.tag?.n ?? -1) leaves=\(ns(root.leaves, \.n))")
        }
        for leaf in try context.fetch(RuleLeaf.fetchRequest()) {
            lines.append(
                "leaf \(leaf.n) root=\(leaf.root?.n ?? -1) tag=\(leaf.tag?.n ?? -1) notes=\(ns(leaf.notes, \.n))")
        }
        for note in try context.fetch(RuleNote.fetchRequest()) {
            lines.append("note \(note.n) leaf=\(note.leaf?.n ?? -1)")
        }
        for tag in try context.fetch(RuleTag.fetchRequest()) {
            lines.append("tag \(tag.n) roots=\(ns(tag.roots, \.n)) leaves=\(ns(tag.leaves, \.n))")
        }
        return lines.sorted()
    }

    @Test(arguments: 1...24)
    func contextAndBatchDeletesLeaveTheSameGraph(seed: Int) throws {
        let byContext = try makeGraph(seed: UInt64(seed))
        let byBatch = try makeGraph(seed: UInt64(seed))
        #expect(try describe(byContext) == describe(byBatch))
        let threshold = Int64(seed % 7 + 2)
        let predicate = try FetchPredicate(format: "n < %d OR tag.n == %d", threshold, seed % 3)

        let context = byContext.newContext()
        var request = RuleRoot.fetchRequest()
        request.predicate = predicate
        let matches = try context.fetch(request)
        for root in matches { context.delete(root) }
        try context.save()

        let result = try byBatch.newContext().execute(BatchDeleteRequest(RuleRoot.self, predicate: predicate))
        #expect(result.count >= matches.count, "the batch counts cascaded objects too")
        #expect(try describe(byContext) == describe(byBatch))
        // The stored rows too: no reference to a deleted object is left behind on either path.
        #expect(byContext.committedSnapshot().jsonDocument() == byBatch.committedSnapshot().jsonDocument())
    }

    @Test func bothRefuseADeleteThatDenyStillBlocks() throws {
        final class Owner: ManagedObject {
            @Relationship(inverse: "owner", deleteRule: .deny) var pets: Set<Pet>
        }
        final class Pet: ManagedObject {
            @Relationship(inverse: "pets") var owner: Owner?
        }
        let model = try ManagedObjectModel(Owner.self, Pet.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let owner = Owner(context: context)
        Pet(context: context).owner = owner
        try context.save()

        context.delete(owner)
        let saveError = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(saveError?.code == .validation)
        #expect(saveError?.key == "pets")
        context.rollback()

        let batchError = #expect(throws: PersistenceError.self) {
            try context.execute(BatchDeleteRequest(Owner.self))
        }
        #expect(batchError?.code == .validation)
        #expect(try container.newContext().count(for: Owner.fetchRequest()) == 1)
    }
}
