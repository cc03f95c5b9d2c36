import Foundation
import ObjectGraph

/// A typed hierarchy three levels deep: Animal (abstract) ← Mammal ← Dog, and Animal ← Bird.
class Animal: ManagedObject {
    override class var isAbstractEntity: Bool { self == Animal.self }
    @Attribute(indexed: true) var name = ""
    @Attribute var legs: Int64 = 4
    @Relationship(inverse: "pets") var keeper: Keeper?
}

class Mammal: Animal {
    @Attribute var fur = "brown"
}

final class Dog: Mammal {
    @Attribute var barks = true
    @Relationship(inverse: "dog", deleteRule: .cascade) var collar: Collar?
}

final class Bird: Animal {
    @Attribute var canFly = true
}

final class Keeper: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "keeper", deleteRule: .cascade) var pets: Set<Animal>
    @Relationship(inverse: nil) var favourite: Animal?
}

final class Collar: ManagedObject {
    @Attribute var color = ""
    @Relationship(inverse: "collar") var dog: Dog?
}

enum InheritanceModels {
    static let zoo = try! ManagedObjectModel(
        Animal.self, Mammal.self, Dog.self, Bird.self, Keeper.self, Collar.self)

    /// An untyped hierarchy, as a Core Data model file has it (each entity lists only its own
    /// properties): Item (abstract) ← Document ← Invoice, Item ← Note; a Folder holds Items.
    static func documentEntities() -> [EntityDescription] {
        var item = EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "title", type: .string, defaultValue: ""),
                AttributeDescription(name: "rank", type: .integer64, defaultValue: 0),
            ],
            relationships: [RelationshipDescription(name: "folder", destination: "Folder", inverse: "items")],
            uniquenessConstraints: [["title"]])
        item.isAbstract = true
        var document = EntityDescription(
            name: "Document", attributes: [AttributeDescription(name: "pages", type: .integer64, defaultValue: 1)])
        document.superentityName = "Item"
        var invoice = EntityDescription(
            name: "Invoice", attributes: [AttributeDescription(name: "amount", type: .double, defaultValue: 0)])
        invoice.superentityName = "Document"
        var note = EntityDescription(
            name: "Note", attributes: [AttributeDescription(name: "text", type: .string, isOptional: true)])
        note.superentityName = "Item"
        let folder = EntityDescription(
            name: "Folder", attributes: [AttributeDescription(name: "name", type: .string, defaultValue: "")],
            relationships: [
                RelationshipDescription(
                    name: "items", destination: "Item", inverse: "folder", isToMany: true, deleteRule: .cascade)
            ])
        return [item, document, invoice, note, folder]
    }

    static let documents = try! ManagedObjectModel(entities: documentEntities())
}
