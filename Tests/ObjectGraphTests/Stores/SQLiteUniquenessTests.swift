import Foundation
import Testing

@testable import ObjectGraph

/// A SQLite store finds the stored duplicates of a written object as the in-memory store does:
/// strings equal as Swift compares them, whatever their Unicode form.
@Suite struct SQLiteUniquenessTests {
    private static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Person",
            attributes: [
                AttributeDescription(name: "mail", type: .string),
                AttributeDescription(name: "team", type: .integer64, defaultValue: 0),
            ],
            uniquenessConstraints: [["mail"], ["team", "mail"]])
    ])

    /// Pairs of spellings Swift finds equal, whose bytes differ: precomposed and decomposed, a
    /// spelling in neither NFC nor NFD (its marks out of canonical order), and a character with a
    /// singleton decomposition.
    private static let spellings: [(stored: String, written: String)] = [
        ("caf\u{E9}", "cafe\u{301}"),
        ("cafe\u{301}", "caf\u{E9}"),
        ("e\u{301}\u{323}", "\u{1EB9}\u{301}"),
        ("\u{1EB9}\u{301}", "e\u{323}\u{301}"),
        ("\u{212A}elvin", "Kelvin"),
    ]

    /// Saves a person with `stored`, then in a new container (an empty cache) inserts one with
    /// `written`; returns the second save's error code (`nil` if it saved) and the people after.
    private func insertDuplicate(_ store: () -> any PersistentStore, stored: String, written: String) throws -> (
        code: PersistenceError.Code?, count: Int
    ) {
        let first = store()
        let entity = try #require(Self.model.entity(named: "Person"))
        do {
            let context = try PersistentContainer(model: Self.model, store: first).newContext()
            try ManagedObject(entity: entity, insertInto: context).setValue(stored, forKey: "mail")
            try context.save()
        }
        let container = try PersistentContainer(model: Self.model, store: first is SQLiteStore ? store() : first)
        let context = container.newContext()
        try ManagedObject(entity: entity, insertInto: context).setValue(written, forKey: "mail")
        var code: PersistenceError.Code?
        do { try context.save() } catch let error as PersistenceError { code = error.code }
        return (code, try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Person")))
    }

    @Test(arguments: spellings.indices)
    func aDuplicateInAnotherUnicodeFormIsFoundAsTheInMemoryStoreFindsIt(index: Int) throws {
        let (stored, written) = Self.spellings[index]
        #expect(stored == written && Array(stored.utf8) != Array(written.utf8))
        let memory = InMemoryStore()
        let expected = try insertDuplicate({ memory }, stored: stored, written: written)
        let url = TemporaryDirectory.make().appendingPathComponent("people.sqlite")
        let actual = try insertDuplicate({ SQLiteStore(url: url) }, stored: stored, written: written)
        #expect(expected.code == .conflict && expected.count == 1)
        #expect(actual.code == expected.code && actual.count == expected.count)
    }
}
