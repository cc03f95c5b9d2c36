// The code of the guides in Docs/, compiled here; GuideTests checks that every Swift block of a
// guide is one of these regions, and runs them.
import Foundation
import ObjectGraph

// Relationships example 1 begin
final class Library: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "library", deleteRule: .cascade) var shelves: [Bookshelf]  // ordered to-many
}

final class Bookshelf: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "shelves") var library: Library?  // to-one
    @Relationship(inverse: "shelves", deleteRule: .deny) var books: Set<Book>  // many-to-many
}

final class Book: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "books", maxCount: 3) var shelves: Set<Bookshelf>
}
// Relationships example 1 end

// Relationships example 2 begin
func shelveABook(in context: ManagedContext) throws {
    let library = Library(context: context)
    let shelf = Bookshelf(context: context)
    shelf.library = library  // library.shelves is now [shelf]
    let book = Book(context: context)
    book.shelves = [shelf]  // shelf.books is now [book]
    try context.save()

    context.delete(library)  // cascades to the shelf...
    do {
        try context.save()  // ...whose deny rule refuses: it still holds a book
    } catch PersistenceError.Code.validation {
        context.rollback()  // library and shelf are back, nothing was written
    }
}
// Relationships example 2 end

// Relationships example 3 begin
let untypedModel = try! ManagedObjectModel(entities: [
    EntityDescription(
        name: "Author", attributes: [AttributeDescription(name: "name", type: .string)],
        relationships: [
            RelationshipDescription(
                name: "novels", destination: "Novel", inverse: "author", isToMany: true, deleteRule: .cascade)
        ]),
    EntityDescription(
        name: "Novel", attributes: [AttributeDescription(name: "title", type: .string)],
        relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "novels")]),
])
// Relationships example 3 end

// Relationships example 4 begin
final class Member: ManagedObject {
    @Attribute var email = ""
    @Attribute var name = ""

    override class var uniquenessConstraints: [[String]] { [["email"]] }
}

func importMember(email: String, name: String, into context: ManagedContext) throws {
    context.mergePolicy = .objectTrump  // a stored member with this email takes the new name
    let member = Member(context: context)
    member.email = email
    member.name = name
    try context.save()  // member.objectID is now the stored member's ID
}
// Relationships example 4 end

// Validation example 1 begin
final class Article: ManagedObject {
    @Attribute(length: 1...80) var name = "Unnamed"
    @Attribute(minimum: 0, maximum: 100_000) var priceInCents: Int64 = 0
    @Attribute(pattern: "[A-Z]{3}-[0-9]{4}") var sku: String
    @Attribute(minimum: Date(timeIntervalSince1970: 0)) var releasedAt = Date()

    override func validateForSave() throws {
        if name == sku {
            throw PersistenceError.validation("An article's name must differ from its SKU.", object: self, key: "name")
        }
    }
}
// Validation example 1 end

// Validation example 2 begin
func saveAndReport(_ context: ManagedContext) -> [String] {
    do {
        try context.save()
        return []
    } catch let error as PersistenceError where error.code == .validation {
        return error.detailedErrors.map { "\($0.key ?? "-"): \($0.message)" }
    } catch {
        return ["\(error)"]
    }
}
// Validation example 2 end

// Validation example 3 begin
enum BudgetRule: Error {
    case postedInTheFuture
}

final class Expense: ManagedObject {
    @Attribute var createdAt: Date  // required: no default
    @Attribute var cents: Int64 = 0

    override func validateForInsert() throws {
        try super.validateForInsert()  // refuses a missing createdAt before the check below reads it
        if createdAt > Date() { throw BudgetRule.postedInTheFuture }
    }
}
// Validation example 3 end

// Validation example 4 begin
func brokenBudgetRules(_ context: ManagedContext) -> [BudgetRule] {
    do {
        try context.save()
        return []
    } catch let error as PersistenceError {
        // One failure: error.underlying as? BudgetRule works too.
        return error.underlyingErrors(as: BudgetRule.self)
    } catch {
        return []
    }
}
// Validation example 4 end
