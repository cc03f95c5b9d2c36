import Foundation
import Testing

@testable import ObjectGraph

@Suite struct ObjectRegistryTests {
    /// Detached objects of three entities whose keys overlap, as a context registers them.
    private func makeObjects(keysPerEntity: Int) throws -> [ManagedObject] {
        let model = try ManagedObjectModel(Fruit.self, Basket.self, Owner.self, Tag.self)
        var objects: [ManagedObject] = []
        let types: [(String, ManagedObject.Type)] = [("Fruit", Fruit.self), ("Basket", Basket.self), ("Tag", Tag.self)]
        for (name, type) in types {
            let entity = try #require(model.infos.first { $0.name == name }).materializingDescription
            for key in 1...keysPerEntity {
                let object = type.init(entity: entity, insertInto: nil)
                object.objectID = ObjectID(entityName: name, key: Int64(key))
                objects.append(object)
            }
        }
        return objects
    }

    @Test func findsEveryObjectByEntityAndKeyAfterInsertsAndRemovals() throws {
        let objects = try makeObjects(keysPerEntity: 700)
        var registry = ObjectRegistry()
        var reference: [ObjectID: ManagedObject] = [:]
        var generator = SystemRandomNumberGenerator()
        for object in objects.shuffled(using: &generator) {
            registry[object.objectID] = object
            reference[object.objectID] = object
        }
        #expect(registry.count == 2_100)
        // Remove a random half, then check every ID, present or not, against the dictionary.
        for object in objects.shuffled(using: &generator).prefix(1_050) {
            registry[object.objectID] = nil
            reference[object.objectID] = nil
        }
        #expect(registry.count == reference.count)
        for object in objects { #expect(registry[object.objectID] === reference[object.objectID]) }
        #expect(registry[ObjectID(entityName: "Owner", key: 1)] == nil)
        #expect(registry[ObjectID(entityName: "Fruit", key: 701)] == nil)
        #expect(Set(registry.values.map(\.objectID)) == Set(reference.keys))
    }

    @Test func replacingAnObjectKeepsOneEntryAndRemovingAMissingIDChangesNothing() throws {
        let objects = try makeObjects(keysPerEntity: 3)
        var registry = ObjectRegistry()
        registry[ObjectID(entityName: "Fruit", key: 9)] = nil
        #expect(registry.count == 0 && registry[objects[0].objectID] == nil)
        for object in objects { registry[object.objectID] = object }
        let replacement = Fruit(entity: objects[0].info.materializingDescription, insertInto: nil)
        replacement.objectID = objects[0].objectID
        registry[replacement.objectID] = replacement
        registry[ObjectID(entityName: "Owner", key: 2)] = nil
        #expect(registry.count == objects.count)
        #expect(registry[objects[0].objectID] === replacement)
        #expect(registry[objects[1].objectID] === objects[1])
    }

    @Test func manyEntitiesAndHugeKeysAreFoundAndListedInEntityAndKeyOrder() throws {
        // More entities than the linear name search covers, and keys past the chunk table.
        let model = try ManagedObjectModel(entities: (0..<12).map { EntityDescription(name: "Entité \($0) 🍐") })
        var registry = ObjectRegistry()
        var objects: [ManagedObject] = []
        for info in model.infos.reversed() {
            for key: Int64 in [1, 256, 257, 1 << 24, (1 << 32) - 1, 1 << 32] {
                let object = ManagedObject(entity: info.materializingDescription, insertInto: nil)
                object.objectKey = key
                registry[object.objectID] = object
                objects.append(object)
            }
        }
        #expect(registry.count == 72)
        for object in objects { #expect(registry[object.objectID] === object) }
        #expect(registry[ObjectID(entityName: "Entité 3 🍐", key: 2)] == nil)
        #expect(registry[ObjectID(entityName: "Entité 3 🍐", key: (1 << 24) + 1)] == nil)
        #expect(registry[ObjectID(entityName: "Entité 12 🍐", key: 1)] == nil)
        let expectedOrder = objects.sorted {
            ($0.info.index, $0.objectKey) < ($1.info.index, $1.objectKey)
        }
        #expect(registry.values.map(\.objectID) == expectedOrder.map(\.objectID))
        for object in objects where object.objectKey >= 1 << 24 { registry[object.objectID] = nil }
        #expect(registry.count == 36)
        #expect(registry[objects[3].objectID] == nil && registry[objects[2].objectID] === objects[2])
        registry.removeAll()
        #expect(registry.count == 0 && registry.values.isEmpty && registry[objects[0].objectID] == nil)
        registry[objects[0].objectID] = objects[0]
        #expect(registry[objects[0].objectID] === objects[0] && registry.count == 1)
    }

    @Test func chunksGrowFromAnyFirstOffsetAndForEachVisitsEveryObjectOnce() throws {
        // A chunk's first slot at offsets 0, 15, 16, 200 and 255, growth by one slot past its
        // end and by doubling, a chunk first used at offset 0 past the first, and chunks skipped.
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Item")])
        let info = try #require(model.infos.first)
        let keys: [Int64] = [16, 17, 1, 33, 256, 257, 600, 2_000, 1_800, 201 + 256 * 20, 256 * 40, 256 * 40 - 255]
        var registry = ObjectRegistry()
        var objects: [ManagedObject] = []
        var registered: [Int64: ManagedObject] = [:]
        for key in keys {
            let object = ManagedObject(entity: info.materializingDescription, insertInto: nil)
            object.objectKey = key
            registry[object.objectID] = object
            registered[key] = object
            objects.append(object)
            for (key, object) in registered { #expect(registry[ObjectID(entityName: "Item", key: key)] === object) }
        }
        var visited: [Int64] = []
        registry.forEach { visited.append($0.objectKey) }
        #expect(visited == keys.sorted())
        for key: Int64 in [.min, -256, -1, 0] {
            // Keys no object has: nothing to find, nothing to remove.
            #expect(registry[ObjectID(entityName: "Item", key: key)] == nil)
            registry[ObjectID(entityName: "Item", key: key)] = nil
        }
        #expect(registry.count == keys.count)
        for key: Int64 in [2, 15, 18, 255, 258, 1_799, 256 * 41, 1 << 24] {
            #expect(registry[ObjectID(entityName: "Item", key: key)] == nil)
        }
        registry[ObjectID(entityName: "Item", key: 257)] = nil
        registry[ObjectID(entityName: "Item", key: 258)] = nil
        #expect(registry.count == keys.count - 1 && registry[ObjectID(entityName: "Item", key: 257)] == nil)
        withExtendedLifetime(objects) {}
    }
}
