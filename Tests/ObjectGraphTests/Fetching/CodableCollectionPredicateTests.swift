import Foundation
import ObjectGraph
import Testing

/// A note with codable collections: an array of strings, an array of numbers, a dictionary and a
/// codable struct.
final class TaggedNote: ManagedObject {
    @Attribute var title = ""
    @Attribute var tags: [String] = []
    @Attribute var scores: [Int] = []
    @Attribute var counts: [String: Int] = [:]
    @Attribute var origin = Origin(country: "", farms: [], rating: 0)
    @Attribute var nested: [[String]] = []
}

@Suite struct CodableCollectionPredicateTests {
    /// Three saved notes: a (swift, ios; 1, 5), b (linux; 10), c (no tags, no scores).
    private func makeNotes() throws -> (PersistentContainer, ManagedContext) {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(TaggedNote.self), storeDescription: .inMemory)
        let context = container.newContext()
        for (title, tags, scores) in [("a", ["swift", "ios"], [1, 5]), ("b", ["linux"], [10]), ("c", [], [])] {
            let note = TaggedNote(context: context)
            note.title = title
            note.tags = tags
            note.scores = scores
            note.counts = Dictionary(uniqueKeysWithValues: tags.enumerated().map { ($1, $0 + 1) })
        }
        try context.save()
        return (container, context)
    }

    private func titles(_ context: ManagedContext, _ format: String, _ arguments: Any?...) throws -> [String] {
        var request = TaggedNote.fetchRequest()
        request.predicate = try FetchPredicate(format: format, argumentArray: arguments)
        request.sortDescriptors = [SortDescriptor(key: "title")]
        return try context.fetch(request).map(\.title)
    }

    // MARK: - Quantifiers

    @Test func anyAllAndNoneSeeTheArraysElements() throws {
        let (_, context) = try makeNotes()
        #expect(try titles(context, "ANY tags == 'swift'") == ["a"])
        #expect(try titles(context, "ANY tags == %@", "linux") == ["b"])
        #expect(try titles(context, "ANY tags BEGINSWITH[c] 'I'") == ["a"])
        #expect(try titles(context, "ALL tags != 'swift'") == ["b", "c"])
        #expect(try titles(context, "NONE tags == 'swift'") == ["b", "c"])
        #expect(try titles(context, "ANY scores > 4") == ["a", "b"])
        #expect(try titles(context, "ALL scores < 6") == ["a", "c"])
    }

    // MARK: - Membership

    @Test func containsAndInTestMembership() throws {
        let (_, context) = try makeNotes()
        #expect(try titles(context, "tags CONTAINS 'ios'") == ["a"])
        #expect(try titles(context, "'linux' IN tags") == ["b"])
        #expect(try titles(context, "%d IN scores", 5) == ["a"])
        #expect(try titles(context, "NOT ('ios' IN tags)") == ["b", "c"])
    }

    // MARK: - Collection operators

    @Test func collectionOperatorsCountAndAggregateTheElements() throws {
        let (_, context) = try makeNotes()
        #expect(try titles(context, "tags.@count == 2") == ["a"])
        #expect(try titles(context, "tags.@count == 0") == ["c"])
        #expect(try titles(context, "scores.@sum == 6") == ["a"])
        #expect(try titles(context, "scores.@max >= 10") == ["b"])
    }

    @Test func aDictionarysValuesAreItsElements() throws {
        let (_, context) = try makeNotes()
        #expect(try titles(context, "ANY counts == 2") == ["a"])
        #expect(try titles(context, "counts.@count == 1") == ["b"])
    }

    // MARK: - Typed predicates

    @Test func swiftPredicatesUseContainsOnACodableArray() throws {
        let (_, context) = try makeNotes()
        let request = FetchRequest<TaggedNote>(
            predicate: FetchPredicate(#Predicate<TaggedNote> { $0.tags.contains("linux") }))
        #expect(try context.fetch(request).map(\.title) == ["b"])
    }

    // MARK: - Unchanged behaviour

    @Test func wholeValueComparisonsOfCodableAttributesKeepTheirMeaning() throws {
        let (_, context) = try makeNotes()
        let note = try #require(try context.fetch(TaggedNote.fetchRequest()).first { $0.title == "a" })
        var request = TaggedNote.fetchRequest()
        request.predicate = try FetchPredicate(format: "origin == %@", note.origin.storeValueData)
        #expect(try context.fetch(request).count == 3)
        #expect(try titles(context, "tags == nil").isEmpty)
    }

    @Test func nestedArraysAreLeftOutOfTheElements() throws {
        let (_, context) = try makeNotes()
        let note = try #require(try context.fetch(TaggedNote.fetchRequest()).first { $0.title == "c" })
        note.nested = [["deep"]]
        note.tags = ["top"]
        try context.save()
        #expect(try titles(context, "nested.@count == 0") == ["a", "b", "c"])
        #expect(try titles(context, "ANY tags == 'top'") == ["c"])
    }
}

extension Origin {
    /// The stored JSON of the value, as a predicate argument compares it.
    fileprivate var storeValueData: Data {
        guard case .data(let data) = storeValue else { return Data() }
        return data
    }
}
