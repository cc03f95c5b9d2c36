import Foundation
import Testing

@testable import ObjectGraph

/// Batch deletes and deletes of everything on a SQLite store select the deleted objects in SQL
/// and read only the rows their delete rules need, with the same results and effects as the
/// in-memory store (the oracle).
@Suite struct SQLiteBatchDeleteTests {
    // MARK: - Agreement with the in-memory store

    /// Shelves hold books in order (cascade); books (and novels, a sub-entity) hold pages
    /// (cascade) and tags (many-to-many, nullify); a page is held by a lock (deny) and may point
    /// to a book without an inverse.
    private static let library: ManagedObjectModel = {
        func number() -> AttributeDescription { AttributeDescription(name: "n", type: .integer64, defaultValue: 0) }
        let shelf = EntityDescription(
            name: "Shelf", attributes: [number()],
            relationships: [
                RelationshipDescription(
                    name: "books", destination: "Book", inverse: "shelf", isToMany: true, isOrdered: true,
                    deleteRule: .cascade)
            ])
        let book = EntityDescription(
            name: "Book", attributes: [number(), AttributeDescription(name: "title", type: .string, defaultValue: "")],
            relationships: [
                RelationshipDescription(name: "shelf", destination: "Shelf", inverse: "books"),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "books", isToMany: true),
                RelationshipDescription(
                    name: "pages", destination: "Page", inverse: "book", isToMany: true, deleteRule: .cascade),
            ])
        var novel = EntityDescription(
            name: "Novel", attributes: [AttributeDescription(name: "genre", type: .string, defaultValue: "")])
        novel.superentityName = "Book"
        let page = EntityDescription(
            name: "Page", attributes: [number()],
            relationships: [
                RelationshipDescription(name: "book", destination: "Book", inverse: "pages"),
                RelationshipDescription(name: "lock", destination: "Lock", inverse: "page", deleteRule: .deny),
                RelationshipDescription(name: "seeAlso", destination: "Book", inverse: nil),
            ])
        let tag = EntityDescription(
            name: "Tag", attributes: [number()],
            relationships: [
                RelationshipDescription(name: "books", destination: "Book", inverse: "tags", isToMany: true)
            ])
        let lock = EntityDescription(
            name: "Lock", attributes: [number()],
            relationships: [RelationshipDescription(name: "page", destination: "Page", inverse: "lock")])
        return try! ManagedObjectModel(entities: [shelf, book, novel, page, tag, lock])
    }()

    /// The same library in `store`: 4 shelves of 6 books (every other one a novel), pages,
    /// tags, see-also references, and locks on two pages of the last shelf.
    private func makeLibrary(_ store: any PersistentStore) throws -> PersistentContainer {
        let container = try PersistentContainer(model: Self.library, store: store)
        let context = container.newContext()
        func make(_ entity: String, _ n: Int) throws -> ManagedObject {
            let object = ManagedObject(entity: try #require(Self.library.entity(named: entity)), insertInto: context)
            try object.setValue(Int64(n), forKey: "n")
            return object
        }
        let tags = try (1...3).map { try make("Tag", $0) }
        var books: [ManagedObject] = []
        var pages: [ManagedObject] = []
        for shelfNumber in 1...4 {
            let shelf = try make("Shelf", shelfNumber)
            var held: [ManagedObject] = []
            for bookNumber in 0..<6 {
                let n = shelfNumber * 100 + bookNumber
                let book = try make(bookNumber % 2 == 0 ? "Book" : "Novel", n)
                try book.setValue(String(repeating: "t", count: 4 + (n % 5)), forKey: "title")
                try book.setValue(
                    Set(tags.enumerated().filter { (n + $0.offset) % 3 != 0 }.map(\.element)), forKey: "tags")
                for pageNumber in 0..<(n % 3) {
                    let page = try make("Page", n * 10 + pageNumber)
                    try page.setValue(book, forKey: "book")
                    if let earlier = books.last { try page.setValue(earlier, forKey: "seeAlso") }
                    pages.append(page)
                }
                held.insert(book, at: 0)
                books.append(book)
            }
            try shelf.setValue(held, forKey: "books")
        }
        for (index, page) in pages.suffix(4).enumerated() where index % 2 == 0 {
            try make("Lock", index).setValue(page, forKey: "page")
        }
        try context.save()
        return container
    }

    /// What an operation did: the deleted IDs (or the error's code and failures), and every
    /// committed row after it.
    private func outcome(_ store: any PersistentStore, _ operation: (ManagedContext) throws -> [ObjectID]) throws
        -> [String]
    {
        let container = try makeLibrary(store)
        var lines: [String]
        do {
            lines = try operation(container.newContext()).map(\.description).sorted()
        } catch let error as PersistenceError {
            lines = ["error \(error.code) \(error.detailedErrors.map(\.description).sorted())"]
        }
        lines.append(container.committedSnapshot().jsonDocument())
        return lines
    }

    private func sqliteStore() -> SQLiteStore {
        SQLiteStore(url: TemporaryDirectory.make().appendingPathComponent("library.sqlite"))
    }

    private static let batchDeletes: [(entity: String, format: String)] = [
        ("Shelf", "n <= 2"),  // a cascade chain: shelves, books and novels, pages; tags nullified
        ("Shelf", "n == 4"),  // reaches a locked page: deny refuses, nothing changes
        ("Book", "n >= 203 AND n <= 305"),  // with the novels; an ordered inverse shrinks
        ("Novel", "n > 300"),
        ("Tag", "n == 2"),  // many-to-many
        ("Page", "n < 3000"),  // see-also references without an inverse stay
        ("Lock", "n == 0"),
        ("Book", "title.length > 6 AND n < 400"),  // SQL narrows, the engine decides
        ("Book", "shelf.n == 2 AND title.length > 5"),  // the engine reads the shelves
        ("Book", "ANY tags.n == 3"),
    ]

    @Test(arguments: batchDeletes.indices)
    func aBatchDeleteHasTheInMemoryStoresResultsAndEffects(index: Int) throws {
        let (entity, format) = Self.batchDeletes[index]
        let delete: (ManagedContext) throws -> [ObjectID] = { context in
            try context.execute(BatchDeleteRequest(entityName: entity, predicate: try FetchPredicate(format: format)))
                .deletedObjectIDs
        }
        let expected = try outcome(InMemoryStore(), delete)
        #expect(try outcome(sqliteStore(), delete) == expected, "\(entity) \(format)")
    }

    @Test(arguments: ["Shelf", "Book", "Novel", "Page", "Tag", "Lock"])
    func aDeleteOfEverythingHasTheInMemoryStoresEffects(entity: String) throws {
        let delete: (ManagedContext) throws -> [ObjectID] = { context in
            [ObjectID(entityName: "count", key: Int64(try context.deleteAll(entityName: entity)))]
        }
        let expected = try outcome(InMemoryStore(), delete)
        #expect(try outcome(sqliteStore(), delete) == expected, "\(entity)")
    }

    @Test func aRefusedBatchDeleteChangesNothingInTheFile() throws {
        let url = sqliteStore().url
        func stored() throws -> String {
            try PersistentContainer(model: Self.library, store: SQLiteStore(url: url)).committedSnapshot()
                .jsonDocument()
        }
        _ = try makeLibrary(SQLiteStore(url: url))
        let before = try stored()
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: Self.library, store: SQLiteStore(url: url)).newContext().execute(
                BatchDeleteRequest(entityName: "Shelf", predicate: try FetchPredicate(format: "n >= 3")))
        }
        #expect(error?.code == .validation)
        #expect(error?.detailedErrors.count == 2)
        #expect(error?.detailedErrors.allSatisfy { $0.key == "lock" } == true)
        #expect(try stored() == before)
    }

    // MARK: - Rows read

    /// 10,000 fruits in 1,000 baskets, each fruit priced by its number; ten tags on ten fruits.
    private func makeFruits() throws -> URL {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
        var baskets: [Basket] = []
        for number in 0..<10_000 {
            if number % 10 == 0 {
                baskets.append(Basket(context: context))
                baskets[baskets.count - 1].label = "basket \(baskets.count)"
            }
            let fruit = Fruit(context: context)
            fruit.name = "fruit \(number)"
            fruit.price = Int64(number)
            fruit.basket = baskets.last
            if number % 1_000 == 0 {
                let tag = Tag(context: context)
                tag.title = "tag \(number)"
                fruit.tags = [tag]
            }
        }
        try context.save()
        return url
    }

    @Test(arguments: [
        "price >= 9990", "price >= 9990 AND name.length > 3", "price >= 9990 AND basket.label.length > 3",
    ])
    func aBatchDeleteOfTenOfTenThousandReadsAboutTenRows(format: String) throws {
        let store = RowCountingStore(url: try makeFruits())
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let result = try container.newContext().execute(
            BatchDeleteRequest(Fruit.self, predicate: try FetchPredicate(format: format)))
        #expect(result.count == 10)
        // The ten fruits (read again for their versions) and their basket, whose other members
        // a commit reads as it reads every object a written row refers to: not the 10,000.
        #expect(store.rowsRead <= 25, "\(store.rowsRead) rows read")
        #expect(try container.newContext().count(for: Fruit.fetchRequest()) == 9_990)
    }

    @Test func aDeleteOfEveryObjectOfAnEntityWithRelationshipsReadsOnlyTheRowsItsRulesNeed() throws {
        let store = RowCountingStore(url: try makeFruits())
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        #expect(try context.deleteAll(entityName: "Tag") == 10)
        // The ten tagged fruits (nullified; read again for their versions) and the objects they
        // refer to: not the 10,000 others.
        #expect(store.rowsRead <= 50, "\(store.rowsRead) rows read")
        var tagged = Fruit.fetchRequest()
        tagged.predicate = try FetchPredicate(format: "tags.@count > 0")
        #expect(try context.count(for: tagged) == 0)
    }
}
