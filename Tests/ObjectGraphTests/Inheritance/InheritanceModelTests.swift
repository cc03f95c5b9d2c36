import Foundation
import ObjectGraph
import Testing

@Suite struct InheritanceModelTests {
    // MARK: - Flattening

    @Test func subEntitiesHaveInheritedPropertiesFirstInTheParentsOrder() throws {
        let model = InheritanceModels.documents
        let invoice = try #require(model.entity(named: "Invoice"))
        #expect(invoice.attributes.map(\.name) == ["title", "rank", "pages", "amount"])
        #expect(invoice.relationships.map(\.name) == ["folder"])
        #expect(invoice.attributesByName["title"]?.type == .string)
        #expect(invoice.uniquenessConstraints == [["title"]])
        #expect(invoice.superentityName == "Document")
        let item = try #require(model.entity(named: "Item"))
        #expect(item.attributes.map(\.name) == ["title", "rank"])
        #expect(item.isAbstract)
    }

    @Test func handedOutDescriptionsNavigateTheHierarchy() throws {
        let model = InheritanceModels.documents
        let invoice = try #require(model.entity(named: "Invoice"))
        #expect(invoice.superentity?.name == "Document")
        #expect(invoice.superentity?.superentity?.name == "Item")
        #expect(invoice.superentity?.superentity?.superentity == nil)
        let item = try #require(model.entity(named: "Item"))
        #expect(item.subentities.map(\.name) == ["Document", "Note"])
        #expect(item.subentities.first?.subentities.map(\.name) == ["Invoice"])
        #expect(invoice.isKindOf(entity: item))
        #expect(invoice.isKindOf(entity: invoice))
        #expect(!item.isKindOf(entity: invoice))
        #expect(try !#require(model.entity(named: "Note")).isKindOf(entity: #require(model.entity(named: "Document"))))
        #expect(try #require(model.entity(named: "Folder")).subentities.isEmpty)
    }

    @Test func aModelsOwnDescriptionsBuildTheSameModelAgain() throws {
        let model = InheritanceModels.documents
        let again = try ManagedObjectModel(entities: model.entities)
        #expect(again.entities == model.entities)
        #expect(again.entity(named: "Invoice")?.attributes.map(\.name) == ["title", "rank", "pages", "amount"])
        #expect(model.schemaDifferences(from: again).isEmpty)
    }

    // MARK: - Validation

    @Test func rejectsAnUnknownSuperentity() {
        var orphan = EntityDescription(name: "Orphan")
        orphan.superentityName = "Nobody"
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: [orphan]) }
        #expect(error?.code == .invalidModel)
        #expect(error?.entityName == "Orphan")
        #expect(error?.message.contains("'Nobody'") == true)
    }

    @Test func rejectsASuperentityCycle() {
        var first = EntityDescription(name: "First")
        first.superentityName = "Second"
        var second = EntityDescription(name: "Second")
        second.superentityName = "First"
        var selfish = EntityDescription(name: "Selfish")
        selfish.superentityName = "Selfish"
        for entities in [[first, second], [selfish]] {
            let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: entities) }
            #expect(error?.code == .invalidModel)
            #expect(error?.message.contains("cycle") == true)
        }
    }

    @Test func rejectsASubEntityPropertyThatRedeclaresAnInheritedOne() {
        var entities = InheritanceModels.documentEntities()
        entities[2].attributes.append(AttributeDescription(name: "rank", type: .integer16))
        let error = #expect(throws: PersistenceError.self) { try ManagedObjectModel(entities: entities) }
        #expect(error?.code == .invalidModel)
        #expect(error?.entityName == "Invoice")
        #expect(error?.key == "rank")
        #expect(error?.message.contains("inherits from 'Document'") == true)
    }

    @Test func anInheritedRelationshipsInverseMayPointAtTheSuperentity() throws {
        let model = InheritanceModels.documents
        let note = try #require(model.entity(named: "Note"))
        #expect(note.relationshipsByName["folder"]?.inverse == "items")
    }

    // MARK: - Typed classes

    @Test func typedSubclassesInferTheirSuperentityFromTheClassHierarchy() throws {
        let model = InheritanceModels.zoo
        let dog = try #require(model.entity(for: Dog.self))
        #expect(dog.superentityName == "Mammal")
        #expect(dog.superentity?.superentityName == "Animal")
        #expect(dog.attributes.map(\.name) == ["name", "legs", "fur", "barks"])
        #expect(dog.relationships.map(\.name) == ["keeper", "collar"])
        #expect(dog.attributes[0].isIndexed)
        #expect(try #require(model.entity(for: Animal.self)).isAbstract)
        #expect(try !#require(model.entity(for: Mammal.self)).isAbstract)
        #expect(!dog.isAbstract)
        #expect(model.entity(named: "Animal")?.subentities.map(\.name) == ["Mammal", "Bird"])
    }

    @Test func aSuperclassOutsideTheModelOnlyLendsItsProperties() throws {
        let model = try ManagedObjectModel(StampedMemo.self)
        let memo = try #require(model.entity(for: StampedMemo.self))
        #expect(memo.superentityName == nil)
        #expect(memo.attributes.map(\.name) == ["created", "text"])
        let both = try ManagedObjectModel(Timestamped.self, StampedMemo.self)
        #expect(both.entity(for: StampedMemo.self)?.superentityName == "Timestamped")
    }

    @Test func anInheritedAbstractFlagOnALeafClassIsRefused() {
        let error = #expect(throws: PersistenceError.self) {
            try ManagedObjectModel(Loudly.self, LoudlyBarking.self)
        }
        #expect(error?.code == .invalidModel)
        #expect(error?.entityName == "LoudlyBarking")
        #expect(error?.message.contains("self == Loudly.self") == true)
    }
}

/// An abstract class whose flag its subclass inherits by mistake.
class Loudly: ManagedObject {
    override class var isAbstractEntity: Bool { true }
    @Attribute var volume: Int64 = 0
}

final class LoudlyBarking: Loudly {}

/// A superclass that is an entity only when the model lists it.
class Timestamped: ManagedObject {
    @Attribute var created = Date(timeIntervalSince1970: 0)
}

final class StampedMemo: Timestamped {
    @Attribute var text = ""
}
