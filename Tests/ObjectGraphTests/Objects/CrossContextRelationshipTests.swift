import Foundation
import ObjectGraph
import Testing

final class Playlist: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "playlist") var songs: [Song]
}

final class Song: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "songs") var playlist: Playlist?
}

@Suite struct CrossContextRelationshipTests {
    /// Two contexts of one container, a saved basket in each, and a fruit in the first.
    private func twoContexts() throws -> (ManagedContext, ManagedContext, Fruit, Basket) {
        let (container, context) = try makeContext()
        let other = container.newContext()
        let fruit = makeFruit(context, "Apple")
        try context.save()
        let foreign = Basket(context: other)
        try other.save()
        return (context, other, fruit, foreign)
    }

    private func expectForeign(_ error: PersistenceError?, key: String, object: ManagedObject) {
        #expect(error?.code == .typeMismatch)
        #expect(error?.key == key && error?.objectID == object.objectID && error?.entityName == object.entity.name)
        #expect(error?.message.contains("different contexts") == true)
    }

    @Test func aToOneObjectOfAnotherContextIsRefused() throws {
        let (context, _, fruit, foreign) = try twoContexts()
        let error = #expect(throws: PersistenceError.self) { try fruit.setValue(foreign, forKey: "basket") }
        expectForeign(error, key: "basket", object: fruit)
        #expect(fruit.basket == nil && foreign.fruits.isEmpty)
        #expect(!context.hasChanges)
    }

    @Test func aSetContainingAnObjectOfAnotherContextIsRefused() throws {
        let (context, other, fruit, _) = try twoContexts()
        let basket = Basket(context: context)
        let foreignFruit = makeFruit(other, "Pear")
        let error = #expect(throws: PersistenceError.self) {
            try basket.setValue(Set([fruit, foreignFruit]), forKey: "fruits")
        }
        expectForeign(error, key: "fruits", object: basket)
        #expect(basket.fruits.isEmpty && fruit.basket == nil && foreignFruit.basket == nil)
    }

    @Test func anArrayContainingAnObjectOfAnotherContextIsRefused() throws {
        let (context, other, fruit, _) = try twoContexts()
        let tag = Tag(context: context)
        let foreignFruit = makeFruit(other, "Pear")
        let error = #expect(throws: PersistenceError.self) {
            try tag.setValue([fruit, foreignFruit], forKey: "fruits")
        }
        expectForeign(error, key: "fruits", object: tag)
        #expect(tag.fruits.isEmpty && fruit.tags.isEmpty)
    }

    @Test func anOrderedRelationshipRefusesAnObjectOfAnotherContext() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Playlist.self, Song.self), storeDescription: .inMemory)
        let context = container.newContext()
        let other = container.newContext()
        let playlist = Playlist(context: context)
        let song = Song(context: context)
        let foreign = Song(context: other)
        let error = #expect(throws: PersistenceError.self) { try playlist.setValue([song, foreign], forKey: "songs") }
        expectForeign(error, key: "songs", object: playlist)
        #expect(playlist.songs.isEmpty && song.playlist == nil)
        let single = #expect(throws: PersistenceError.self) { try foreign.setValue(playlist, forKey: "playlist") }
        expectForeign(single, key: "playlist", object: foreign)
        try playlist.setValue([song], forKey: "songs")
        #expect(song.playlist === playlist)
    }

    @Test func aDetachedObjectIsRefusedAsATarget() throws {
        let (context, _, fruit, _) = try twoContexts()
        let entity = try #require(TestModels.fruits.entity(named: "Basket"))
        let detached = Basket(entity: entity, insertInto: nil)
        let error = #expect(throws: PersistenceError.self) { try fruit.setValue(detached, forKey: "basket") }
        expectForeign(error, key: "basket", object: fruit)
        #expect(error?.message.contains("detached") == true)
        #expect(!context.hasChanges)
    }

    @Test func aDetachedObjectCannotSetARelationship() throws {
        let (_, _, fruit, _) = try twoContexts()
        let entity = try #require(TestModels.fruits.entity(named: "Basket"))
        let detached = Basket(entity: entity, insertInto: nil)
        let error = #expect(throws: PersistenceError.self) { try detached.setValue([fruit], forKey: "fruits") }
        #expect(error?.code == .typeMismatch && error?.key == "fruits" && error?.entityName == "Basket")
        #expect(fruit.basket == nil)
    }

    @Test func clearingARelationshipOfADetachedObjectIsRefusedToo() throws {
        let entity = try #require(TestModels.fruits.entity(named: "Fruit"))
        let detached = Fruit(entity: entity, insertInto: nil)
        let error = #expect(throws: PersistenceError.self) { try detached.setValue(nil, forKey: "basket") }
        #expect(error?.code == .typeMismatch && error?.key == "basket")
    }

    @Test func objectsOfTheSameContextStillRelate() throws {
        let (context, _, fruit, _) = try twoContexts()
        let basket = Basket(context: context)
        try fruit.setValue(basket, forKey: "basket")
        #expect(basket.fruits == [fruit])
        try basket.setValue(Set<Fruit>(), forKey: "fruits")
        #expect(fruit.basket == nil)
    }
}
