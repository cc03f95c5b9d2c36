import Foundation
import Testing

@testable import ObjectGraph

/// Fetches that create objects: what is reused, what is created, and what each new object gets.
@Suite struct FetchMaterializationTests {
    /// A container whose store holds `count` saved `Journaled` objects titled "0", "1", …
    private func makeSavedJournals(_ count: Int) throws -> PersistentContainer {
        let container = try PersistentContainer(model: TestModels.samples, storeDescription: .inMemory)
        let filler = container.newContext()
        for index in 0..<count {
            let journal = Journaled(context: filler)
            journal.title = "\(index)"
        }
        try filler.save()
        return container
    }

    // MARK: - Registered objects

    @Test func fetchingIntoAContextThatHoldsSomeObjectsReusesThemAndAwakesOnlyTheNewOnes() throws {
        // 600 objects: the registry's chunks of 256 are crossed twice.
        let container = try makeSavedJournals(600)
        let context = container.newContext()
        var some = FetchRequest<Journaled>()
        some.predicate = try FetchPredicate(format: "title ENDSWITH %@", "7")
        let held = try context.fetch(some)
        #expect(held.count == 60)
        #expect(held.allSatisfy { $0.events == ["awakeFromFetch"] })

        let changed = held[3]
        changed.title = "changed ✏️"
        let deleted = held[5]
        context.delete(deleted)
        let inserted = Journaled(context: context)
        inserted.title = "new"

        let all = try context.fetch(FetchRequest<Journaled>())
        #expect(all.count == 600)  // 600 saved, one pending delete, one pending insert
        #expect(!all.contains { $0 === deleted })
        #expect(all.last === inserted)
        for object in held where object !== deleted {
            #expect(all.contains { $0 === object })
        }
        #expect(all.contains { $0 === changed && $0.title == "changed ✏️" })
        // Each object was awoken once, whichever fetch made it; the inserted one never.
        for object in all where object !== inserted { #expect(object.events == ["awakeFromFetch"]) }
        #expect(inserted.events == ["awakeFromInsert"])
        #expect(context.registeredObjects.count == 601)
        // In key order: the saved titles ascend numerically, the changed one where it was.
        let titles = all.dropLast().map(\.title)
        #expect(
            titles.filter { $0 != "changed ✏️" } == titles.filter { $0 != "changed ✏️" }.sorted { Int($0)! < Int($1)! })

        // A second fetch creates nothing: the same instances come back.
        let again = try context.fetch(FetchRequest<Journaled>())
        #expect(zip(again, all).allSatisfy { $0 === $1 })
        #expect(again.allSatisfy { $0.events.count == 1 })
    }

    @Test func fetchingWithoutPendingChangesSkipsInsertsAndKeepsDeletedObjectsCommittedValues() throws {
        let container = try makeSavedJournals(3)
        let context = container.newContext()
        let first = try context.fetch(FetchRequest<Journaled>())
        context.delete(first[0])
        first[1].title = "unsaved"
        _ = Journaled(context: context)
        var request = FetchRequest<Journaled>()
        request.includesPendingChanges = false
        let committed = try context.fetch(request)
        #expect(committed.count == 3)
        #expect(zip(committed, first).allSatisfy { $0 === $1 })
    }

    // MARK: - Result types

    @Test func untypedAndTypedRequestsReturnTheSameInstancesOfTheSubclass() throws {
        let container = try makeSavedJournals(300)
        let context = container.newContext()
        let untyped = try context.fetch(FetchRequest<ManagedObject>(entityName: "Journaled"))
        #expect(untyped.count == 300)
        #expect(untyped.allSatisfy { $0 is Journaled })
        let typed = try context.fetch(FetchRequest<Journaled>())
        #expect(zip(untyped, typed).allSatisfy { $0 === $1 })
        // The typed array is an ordinary array: it can grow and be copied.
        var grown = typed
        grown.append(Journaled(context: context))
        #expect(grown.count == 301 && typed.count == 300)
    }

    @Test func anEmptyEntityAndAZeroLimitFetchNothing() throws {
        let container = try makeSavedJournals(0)
        let context = container.newContext()
        #expect(try context.fetch(FetchRequest<Journaled>()).isEmpty)
        let saved = try makeSavedJournals(5).newContext()
        var limited = FetchRequest<Journaled>()
        limited.fetchOffset = 10
        #expect(try saved.fetch(limited).isEmpty)
        limited.fetchOffset = 3
        limited.fetchLimit = 1
        #expect(try saved.fetch(limited).map(\.title) == ["3"])
    }

    // MARK: - Entity descriptions

    @Test func copiesOfAnEntityDescriptionChangeIndependently() throws {
        let original = EntityDescription(
            name: "Café ☕️", attributes: [AttributeDescription(name: "name", type: .string)],
            uniquenessConstraints: [["name"]])
        var copy = original
        copy.attributes.append(AttributeDescription(name: "price", type: .integer64))
        copy.name = "Tea"
        #expect(original.name == "Café ☕️" && original.attributes.map(\.name) == ["name"])
        #expect(copy.name == "Tea" && copy.attributes.map(\.name) == ["name", "price"])
        #expect(copy.uniquenessConstraints == [["name"]])
        #expect(original != copy)
        copy.name = original.name
        copy.attributes.removeLast()
        #expect(original == copy && original.hashValue == copy.hashValue)
    }

    // MARK: - Registry

    @Test func keysRegisteredInSequenceAcrossChunksMatchADictionary() throws {
        let model = TestModels.fruits
        let info = try #require(model.info(named: "Tag"))
        var registry = ObjectRegistry()
        var reference: [Int64: ManagedObject] = [:]
        // In sequence from 1 (as a fetch registers), then a gap, a key before it, and removals.
        let keys: [Int64] = Array(1...520) + [700, 600, 257, 1]
        for key in keys {
            let object = Tag(entity: info.materializingDescription, insertInto: nil)
            object.objectKey = key
            registry.register(object)
            reference[key] = object
        }
        #expect(registry.count == reference.count)
        for key in [Int64(256), 300, 520] {
            registry[ObjectID(entityName: "Tag", key: key)] = nil
            reference[key] = nil
        }
        #expect(registry.count == reference.count)
        for key: Int64 in 0...800 {
            #expect(registry.object(entityIndex: info.index, key: key) === reference[key])
        }
        #expect(registry.values.map(\.objectKey) == reference.keys.sorted())
    }

    // MARK: - Every committed row (the fetch without predicate, sort or offset)

    @Test func fetchingEveryRowReturnsTheCommittedRowsInKeyOrderReusingRegisteredObjects() throws {
        // 700 objects, 100 deleted in the store: chunks of 512 crossed, holes skipped.
        let container = try makeSavedJournals(700)
        let remover = container.newContext()
        var tens = FetchRequest<Journaled>()
        tens.predicate = try FetchPredicate(format: "title ENDSWITH %@", "3")
        for object in try remover.fetch(tens) { remover.delete(object) }
        try remover.save()

        let context = container.newContext()
        let held = try context.fetch(FetchRequest<Journaled>(predicate: try FetchPredicate(format: "title == '42'")))
        let all = try context.fetch(FetchRequest<Journaled>())
        #expect(all.count == 630)
        #expect(all.map(\.title) == (0..<700).map { "\($0)" }.filter { !$0.hasSuffix("3") })
        #expect(all.contains { $0 === held[0] })
        #expect(
            all.allSatisfy { $0.events == ["awakeFromFetch"] && !$0.hasChanges && $0.managedObjectContext === context })
        #expect(try context.fetch(FetchRequest<Journaled>()).elementsEqual(all, by: ===))

        var limited = FetchRequest<Journaled>()
        limited.fetchLimit = 513
        let first = try context.fetch(limited)
        #expect(first.count == 513)
        #expect(first.elementsEqual(all.prefix(513), by: ===))

        // Pending changes leave the fast path: they are honoured, and then excluded again.
        let inserted = Journaled(context: context)
        inserted.title = "pending"
        #expect(try context.fetch(FetchRequest<Journaled>()).last === inserted)
        var committedOnly = FetchRequest<Journaled>()
        committedOnly.includesPendingChanges = false
        #expect(try context.fetch(committedOnly).elementsEqual(all, by: ===))
        #expect(try context.count(for: FetchRequest<Journaled>()) == 631)
    }
}
