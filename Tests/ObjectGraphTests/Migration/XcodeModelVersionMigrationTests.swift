import Foundation
import Testing

@testable import ObjectGraph

/// Consecutive versions of an Xcode model bundle migrate, including a version that moves an
/// entity under a new abstract parent and widens a relationship's destination to that parent
/// (Journal 2 → 3 in the fixtures).
@Suite struct XcodeModelVersionMigrationTests {
    static func versions() throws -> [(name: String, model: ManagedObjectModel)] {
        try ManagedObjectModel.versions(contentsOf: XcodeModelFixtures.url("Journal.xcdatamodeld"))
            .map { ($0.name, $0.model) }
    }

    /// `model` with each required attribute that `previous` lacks (and that has no default) made
    /// optional: the fixture's Journal 3 adds a required `identifier` with no default, which
    /// stored objects cannot get (the migration refuses it, as Core Data would).
    static func migratable(_ model: ManagedObjectModel, after previous: ManagedObjectModel) throws
        -> ManagedObjectModel
    {
        try ManagedObjectModel(
            entities: model.entities.map { entity in
                var entity = entity
                let old = Set(previous.entity(named: entity.name)?.attributes.map(\.name) ?? [])
                entity.attributes = entity.attributes.map { attribute in
                    var attribute = attribute
                    if !old.contains(attribute.name), attribute.defaultValue.isNull { attribute.isOptional = true }
                    return attribute
                }
                return entity
            })
    }

    /// Two objects of every concrete entity, required values filled, each to-one relationship
    /// set to an object of its destination where one exists.
    static func seed(_ model: ManagedObjectModel, into context: ManagedContext) throws {
        var objects: [String: [ManagedObject]] = [:]
        for entity in model.entities where !entity.isAbstract {
            for number in 0..<2 {
                let object = ManagedObject(entity: entity, insertInto: context)
                for attribute in entity.attributes where attribute.defaultValue.isNull {
                    // Distinct strings, so that a later version's uniqueness constraint holds.
                    if attribute.type == .string {
                        try object.setValue("\(entity.name) \(number)", forKey: attribute.name)
                    } else if !attribute.isOptional, let zero = attribute.type.zeroValue {
                        try object.setValue(zero, forKey: attribute.name)
                    }
                }
                objects[entity.name, default: []].append(object)
            }
        }
        for entity in model.entities where !entity.isAbstract {
            for relationship in entity.relationships where !relationship.isToMany {
                guard let destination = model.entity(named: relationship.destination) else { continue }
                let candidates = model.entities.filter { $0.isKindOf(entity: destination) }
                guard let target = candidates.lazy.compactMap({ objects[$0.name]?.first }).first else { continue }
                for object in objects[entity.name] ?? [] { try object.setValue(target, forKey: relationship.name) }
            }
        }
        try context.save()
    }

    @Test(arguments: ["json", "store"])
    func everyVersionMigratesToTheNextWithItsObjects(fileExtension: String) throws {
        let versions = try Self.versions()
        #expect(versions.count == 3)
        for start in versions.indices.dropLast() {
            let url = TemporaryDirectory.make().appendingPathComponent("journal.\(fileExtension)")
            do {
                let container = try PersistentContainer(
                    model: versions[start].model, storeDescription: try StoreDescription(url: url))
                try Self.seed(versions[start].model, into: container.newContext())
            }
            for next in versions.indices.dropFirst(start + 1) {
                let model = try Self.migratable(versions[next].model, after: versions[next - 1].model)
                let container = try PersistentContainer(model: model, storeDescription: try StoreDescription(url: url))
                let context = container.newContext()
                // Every stored entry is still there, now fetched through its (new) parent too.
                let entries = try context.fetch(FetchRequest<ManagedObject>(entityName: "Entry"))
                #expect(entries.count == 2, "\(versions[start].name) → \(versions[next].name)")
                if model.entity(named: "Item") != nil {
                    let items = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                    #expect(Set(items.map(\.objectID)).isSuperset(of: entries.map(\.objectID)))
                }
                // The relationship to the notebook survives, and its inverse (now to the parent) is rebuilt.
                let notebooks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Notebook"))
                if let notebook = notebooks.first,
                    let inverse = model.entity(named: "Notebook")?.relationships.first(where: \.isToMany)
                {
                    let held = try #require(notebook.value(forKey: inverse.name) as? Set<ManagedObject>)
                    #expect(held.contains { $0.entity.name == "Entry" }, "\(inverse.name)")
                }
                try context.save()
            }
        }
    }

    @Test func anEntityMadeAbstractWithStoredObjectsFailsAndLeavesTheFile() throws {
        let versions = try Self.versions()
        var entities = versions[1].model.entities
        let index = try #require(entities.firstIndex { $0.name == "Tag" })
        entities[index].isAbstract = true
        let abstractTags = try ManagedObjectModel(entities: entities)
        let url = TemporaryDirectory.make().appendingPathComponent("journal.json")
        do {
            let container = try PersistentContainer(model: versions[1].model, storeDescription: .jsonFile(url))
            try Self.seed(versions[1].model, into: container.newContext())
        }
        let before = try Data(contentsOf: url)
        let error = #expect(throws: PersistenceError.self) {
            try PersistentContainer(model: abstractTags, storeDescription: .jsonFile(url))
        }
        #expect(error?.code == .modelMismatch)
        #expect(error?.message.contains("becomes abstract, but 2 stored objects are of it") == true)
        #expect(try Data(contentsOf: url) == before)
    }
}
