import Foundation
import ObjectGraph
import Testing

/// A base class whose properties every subclass entity inherits.
class Document: ManagedObject {
    @Attribute(indexed: true) var title = "Untitled"
    @Attribute var identifier = UUID()
    @Relationship(inverse: "documents", deleteRule: .nullify) var folder: Folder?
}

/// A subclass entity with options on every kind of declaration.
final class Letter: Document {
    @Attribute(renamingIdentifier: "addressee") var recipient: String?
    @Attribute(minimum: 1, maximum: 5) var stars = 3
    @Attribute(length: 2...2, pattern: "[A-Z]+") var countryCode = "FR"
    @Attribute var sentAt: Date?
}

final class Folder: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "folder", deleteRule: .cascade, minCount: 0, maxCount: 3) var documents: Set<Letter>
}

/// Entities are derived from the declarations of each class and its superclasses.
@Suite struct PropertyDerivationTests {
    static let model = try! ManagedObjectModel(Letter.self, Folder.self)

    @Test func superclassPropertiesComeFirstInDeclarationOrder() throws {
        let letter = try #require(Self.model.entity(named: "Letter"))
        #expect(
            letter.attributes.map(\.name) == ["title", "identifier", "recipient", "stars", "countryCode", "sentAt"])
        #expect(letter.relationships.map(\.name) == ["folder"])
        #expect(letter.managedObjectClass == Letter.self)
    }

    @Test func everyDeclaredOptionIsDerived() throws {
        let letter = try #require(Self.model.entity(named: "Letter"))
        let attributes = letter.attributesByName
        #expect(attributes["title"]?.isIndexed == true)
        #expect(attributes["title"]?.defaultValue == .string("Untitled"))
        #expect(attributes["stars"]?.isIndexed == false)
        #expect(attributes["recipient"]?.renamingIdentifier == "addressee")
        #expect(attributes["recipient"]?.isOptional == true)
        #expect(attributes["sentAt"]?.type == .date)
        #expect(attributes["stars"]?.validation == AttributeValidation(minimum: .int(1), maximum: .int(5)))
        #expect(attributes["countryCode"]?.validation == AttributeValidation(length: 2...2, pattern: "[A-Z]+"))
        #expect(attributes["title"]?.validation.isEmpty == true)
        let folder = try #require(letter.relationshipsByName["folder"])
        #expect(folder.destination == "Folder" && folder.inverse == "documents" && folder.deleteRule == .nullify)
        let documents = try #require(Self.model.entity(named: "Folder")?.relationshipsByName["documents"])
        #expect(documents.isToMany && documents.deleteRule == .cascade && documents.maxCount == 3)
    }

    @Test func initialValuesAreEvaluatedForEachNewObject() throws {
        let container = try PersistentContainer(model: Self.model, storeDescription: .inMemory)
        let context = container.newContext()
        let first = Letter(context: context)
        let second = Letter(context: context)
        #expect(first.identifier != second.identifier)
        #expect(first.title == "Untitled" && first.stars == 3 && first.recipient == nil)
    }

    @Test func derivedRulesAreEnforcedOnSave() throws {
        let container = try PersistentContainer(model: Self.model, storeDescription: .inMemory)
        let context = container.newContext()
        let letter = Letter(context: context)
        letter.stars = 9
        #expect(throws: PersistenceError.self) { try context.save() }
        letter.stars = 5
        letter.countryCode = "fr"
        #expect(throws: PersistenceError.self) { try context.save() }
        letter.countryCode = "DE"
        try context.save()
    }

    @Test func derivationsOnManyThreadsAtOnceAgree() async throws {
        // `identifier`'s default is a fresh UUID for every derivation; everything else must agree.
        func comparable(_ attributes: [AttributeDescription]) -> [AttributeDescription] {
            attributes.map { attribute in
                var attribute = attribute
                if attribute.type == .uuid { attribute.defaultValue = .null }
                return attribute
            }
        }
        let expected = try #require(Self.model.entity(named: "Letter"))
        let derived = await withTaskGroup(of: [EntityDescription].self) { group in
            for _ in 0..<8 {
                group.addTask { (try? ManagedObjectModel(Letter.self, Folder.self).entities) ?? [] }
            }
            var all: [[EntityDescription]] = []
            for await entities in group { all.append(entities) }
            return all
        }
        #expect(derived.count == 8)
        for entities in derived {
            let letter = entities.first { $0.name == "Letter" }
            #expect(letter.map { comparable($0.attributes) } == comparable(expected.attributes))
            #expect(letter?.relationships == expected.relationships)
        }
    }

    @Test func objectsCreatedWhileAnotherThreadDerivesKeepTheirValues() async throws {
        let container = try PersistentContainer(model: Self.model, storeDescription: .inMemory)
        let titles = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                for _ in 0..<50 { _ = try ManagedObjectModel(Letter.self, Folder.self) }
                return []
            }
            group.addTask {
                let context = container.newContext()
                var titles: [String] = []
                for index in 0..<500 {
                    let letter = Letter(context: context)
                    letter.title = "letter \(index)"
                    titles.append(letter.title)
                }
                try context.save()
                return titles
            }
            var all: [String] = []
            for try await titles in group { all += titles }
            return all
        }
        #expect(titles == (0..<500).map { "letter \($0)" })
    }
}
