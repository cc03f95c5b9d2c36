// Imports Foundation and ObjectGraph, as ported apps do: unqualified `SortDescriptor` calls must
// resolve (to Foundation's where a `[SortDescriptor<T>]` is expected, to ObjectGraph's where a
// `[FetchSortDescriptor]` is), or this file would not compile.
import Foundation
import Testing

@testable import ObjectGraph

final class Chore: ManagedObject {
    @Attribute var title = ""
    @Attribute var points: Int64 = 0
    @Attribute var note: String?
    @Relationship(inverse: "chores") var household: Household?

    /// Reads two attributes: no stored property to sort by.
    var summary: String { "\(title) \(points)" }
}

final class Household: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "household") var chores: Set<Chore>
}

@Suite struct FoundationSortDescriptorTests {
    private func makeChores() throws -> (PersistentContainer, ManagedContext) {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Chore.self, Household.self), storeDescription: .inMemory)
        let context = container.newContext()
        for (title, points, note) in [("dishes", 3, "b"), ("Laundry", 5, nil), ("bins", 1, "a"), ("Vacuum", 3, "c")] {
            let chore = Chore(context: context)
            chore.title = title
            chore.points = Int64(points)
            chore.note = note
        }
        try context.save()
        return (container, context)
    }

    // MARK: - Foundation's SortDescriptor<T>

    @Test func sortByTakesFoundationDescriptorsWithTheirOrder() throws {
        let (_, context) = try makeChores()
        var request = Chore.fetchRequest()
        request.sortBy = [SortDescriptor(\Chore.points, order: .reverse), SortDescriptor(\Chore.title)]
        #expect(try context.fetch(request).map(\.title) == ["Laundry", "Vacuum", "dishes", "bins"])
        #expect(request.sortDescriptors == [FetchSortDescriptor(key: "points", ascending: false), .init(key: "title")])
        #expect(request.sortBy == [SortDescriptor(\Chore.points, order: .reverse), SortDescriptor(\Chore.title)])
    }

    @Test func aChangedDescriptorNoLongerReportsItsFoundationOrigin() throws {
        var request = Chore.fetchRequest()
        request.sortBy = [SortDescriptor(\Chore.points, order: .reverse), SortDescriptor(\Chore.title)]
        request.sortDescriptors[0].ascending = true
        request.sortDescriptors[1].comparison = .caseInsensitive
        #expect(request.sortBy.isEmpty, "sortBy lists only descriptors that still mean their Foundation original")
        request.sortBy = [SortDescriptor(\Chore.points)]
        request.sortDescriptors[0].key = "title"
        #expect(request.sortBy.isEmpty)
    }

    @Test func requestInitializerTakesFoundationDescriptors() throws {
        let (_, context) = try makeChores()
        let request = FetchRequest<Chore>(
            predicate: try FetchPredicate(format: "points >= 3"), sortBy: [SortDescriptor(\.title, order: .reverse)])
        #expect(try context.fetch(request).map(\.title) == ["dishes", "Vacuum", "Laundry"])
    }

    @Test func foundationDescriptorConvertsToFetchSortDescriptor() throws {
        let (_, context) = try makeChores()
        let foundation = SortDescriptor<Chore>(\.note, order: .reverse)
        let converted = FetchSortDescriptor(foundation)
        #expect(converted == FetchSortDescriptor(key: "note", ascending: false))
        // nil sorts last in descending order, as with NSSortDescriptor.
        let fetched = try context.fetch(FetchRequest<Chore>(sortDescriptors: [converted]))
        #expect(fetched.map(\.title) == ["Vacuum", "dishes", "bins", "Laundry"])
    }

    @Test func swiftDataSpellingAssignsToSortDescriptors() throws {
        let (_, context) = try makeChores()
        var request = Chore.fetchRequest()
        request.sortDescriptors = [SortDescriptor(\Chore.title, order: .reverse)]
        #expect(try context.fetch(request).map(\.title) == ["dishes", "bins", "Vacuum", "Laundry"])
        let typed: [FetchSortDescriptor] = [SortDescriptor(\Chore.points), SortDescriptor(key: "title")]
        #expect(typed.map(\.key) == ["points", "title"])
    }

    @Test func keyPathThatReadsNoStoredPropertyThrowsAtFetch() throws {
        let (_, context) = try makeChores()
        var request = Chore.fetchRequest()
        request.sortBy = [SortDescriptor(\Chore.summary)]
        let error = #expect(throws: PersistenceError.self) { try context.fetch(request) }
        #expect(error?.code == .invalidFetchRequest)
        #expect(error?.entityName == "Chore")
        #expect(error?.message.contains("reads no single stored property") == true)
        // ObjectGraph's own key-path initializer reports the same, instead of stopping the program.
        let own = FetchSortDescriptor(\Chore.summary)
        let ownError = #expect(throws: PersistenceError.self) {
            try context.fetch(FetchRequest<Chore>(sortDescriptors: [own]))
        }
        #expect(ownError?.code == .invalidFetchRequest)
        #expect(try context.count(for: FetchRequest<Chore>(sortDescriptors: [own])) == 4)
    }

    @Test func keyPathThroughARelationshipThrowsAtFetch() throws {
        let (_, context) = try makeChores()
        let request = FetchRequest<Chore>(sortBy: [SortDescriptor(\Chore.household?.name)])
        let error = #expect(throws: PersistenceError.self) { try context.fetch(request) }
        #expect(error?.code == .invalidFetchRequest)
        #expect(error?.message.contains("basket.label") == true)
    }

    // MARK: - String comparators

    @Test func lexicalComparatorComparesCaseSensitively() throws {
        let (_, context) = try makeChores()
        let request = FetchRequest<Chore>(sortBy: [SortDescriptor(\.title, comparator: .lexical)])
        #expect(request.sortDescriptors.map(\.comparison) == [.caseSensitive])
        #expect(try context.fetch(request).map(\.title) == ["Laundry", "Vacuum", "bins", "dishes"])
        let own = FetchSortDescriptor(\Chore.note, comparator: .lexical, order: .reverse)
        #expect(own == FetchSortDescriptor(key: "note", ascending: false))
    }

    @Test func stringComparatorOptionsMapToAComparison() {
        let cases: [(String.CompareOptions, Bool, FetchSortDescriptor.Comparison)] = [
            ([], false, .caseSensitive),
            (.caseInsensitive, false, .caseInsensitive),
            ([], true, .localized),
            (.caseInsensitive, true, .localizedCaseInsensitive),
            ([.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering], true, .localizedStandard),
            (.numeric, false, .localizedStandard),
            (.diacriticInsensitive, false, .caseSensitive),
        ]
        for (options, isLocalized, comparison) in cases {
            #expect(FetchSortDescriptor.Comparison(options: options, isLocalized: isLocalized) == comparison)
        }
    }

    @Test func foundationComparatorsMapToTheirComparisons() throws {
        #expect(FetchSortDescriptor.Comparison(String.StandardComparator.lexical) == .caseSensitive)
        let descriptor = FetchSortDescriptor(SortDescriptor(\Chore.title, comparator: .lexical, order: .reverse))
        #expect(descriptor == FetchSortDescriptor(key: "title", ascending: false, comparison: .caseSensitive))
        #if canImport(Darwin)
            #expect(FetchSortDescriptor.Comparison(String.StandardComparator.localized) == .localized)
            #expect(FetchSortDescriptor.Comparison(String.StandardComparator.localizedStandard) == .localizedStandard)
        #endif
    }

    @Test func applePlatformComparatorSpellingsCompileEverywhere() throws {
        let (_, context) = try makeChores()
        var request = Chore.fetchRequest()
        request.sortDescriptors = [SortDescriptor(\Chore.title, comparator: .localizedStandard)]
        #expect(request.sortDescriptors == [FetchSortDescriptor(key: "title", comparison: .localizedStandard)])
        #expect(try context.fetch(request).map(\.title) == ["bins", "dishes", "Laundry", "Vacuum"])
        request.sortDescriptors = [SortDescriptor(\Chore.note, comparator: .localized, order: .reverse)]
        #expect(request.sortDescriptors == [FetchSortDescriptor(key: "note", ascending: false, comparison: .localized)])
    }

    // MARK: - The name

    @Test func oldNameIsTheSameType() throws {
        let old: ObjectGraph.SortDescriptor = FetchSortDescriptor(key: "title")
        let new: FetchSortDescriptor = old
        #expect(new.reversed == ObjectGraph.SortDescriptor(key: "title", ascending: false))
    }

    @Test func encodedFormIsUnchangedByFoundationSource() throws {
        let converted = FetchSortDescriptor(SortDescriptor(\Chore.points, order: .reverse))
        let plain = FetchSortDescriptor(key: "points", ascending: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(converted) == encoder.encode(plain))
        #expect(try JSONDecoder().decode(FetchSortDescriptor.self, from: encoder.encode(converted)) == plain)
        #expect(converted.hashValue == plain.hashValue)
    }
}
