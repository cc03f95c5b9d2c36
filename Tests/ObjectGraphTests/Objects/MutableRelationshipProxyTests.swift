import Foundation
import ObjectGraph
import Testing

@Suite struct MutableRelationshipProxyTests {
    // MARK: - Unordered

    @Test func addingThroughTheProxySetsBothSides() throws {
        let (_, context, album) = try makeAlbumWithStranger()
        let carl = try #require(try context.fetch(Listener.fetchRequest()).first { $0.name == "Carl" })
        let listeners = try album.mutableSetValue(forKey: "listeners")
        try listeners.add(carl)
        #expect(album.listeners.map(\.name).sorted() == ["Ann", "Bob", "Carl"])
        #expect(carl.albums == [album])
        #expect(listeners.count == 3 && listeners.contains(carl))
        #expect(album.isUpdated && carl.isUpdated)
        try listeners.add(carl)  // already there: nothing changes
        #expect(listeners.count == 3)
    }

    @Test func removingThroughTheProxyClearsBothSides() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let listeners = try album.mutableSetValue(forKey: "listeners")
        let ann = try #require(album.listeners.first { $0.name == "Ann" })
        try listeners.remove(ann)
        #expect(album.listeners.map(\.name) == ["Bob"] && ann.albums.isEmpty)
        try listeners.remove(ann)  // not there: nothing changes
        try listeners.removeAll()
        #expect(album.listeners.isEmpty && listeners.objects.isEmpty)
    }

    @Test func theProxyIsLiveAndSavesLikeSetValue() throws {
        let (container, context, album) = try makeAlbumWithStranger()
        let listeners = try album.mutableSetValue(forKey: "listeners")
        let carl = try #require(try context.fetch(Listener.fetchRequest()).first { $0.name == "Carl" })
        carl.albums.insert(album)  // changed elsewhere: the proxy sees it
        #expect(Set(listeners.map(\.objectID)) == Set(album.listeners.map(\.objectID)))
        try listeners.add(contentsOf: [carl])
        try listeners.remove(contentsOf: album.listeners.filter { $0.name != "Carl" })
        try context.save()
        let other = container.newContext()
        let saved = try #require(try other.fetch(Album.fetchRequest()).first)
        #expect(saved.listeners.map(\.name) == ["Carl"])
    }

    @Test func proxyChangesAreUndoneAndObserved() throws {
        let (_, context, album) = try makeAlbumWithStranger()
        let carl = try #require(try context.fetch(Listener.fetchRequest()).first { $0.name == "Carl" })
        let undo = ContextUndoManager()
        context.undoManager = undo
        let counter = track { _ = album.listeners }
        try album.mutableSetValue(forKey: "listeners").add(carl)
        #expect(counter.value == 1)
        context.processPendingChanges()
        undo.undo()
        #expect(album.listeners.count == 2 && carl.albums.isEmpty && !context.hasChanges)
    }

    @Test func addingAnObjectOfAnotherEntityOrContextIsATypedError() throws {
        let (container, context, album) = try makeAlbum()
        let listeners = try album.mutableSetValue(forKey: "listeners")
        let track = Track(context: context)
        let wrong = try #require(throws: PersistenceError.self) { try listeners.add(track) }
        #expect(wrong.code == .typeMismatch && wrong.key == "listeners" && wrong.entityName == "Album")
        let otherContext = container.newContext()
        let stranger = Listener(context: otherContext)
        let foreign = try #require(throws: PersistenceError.self) { try listeners.add(stranger) }
        #expect(foreign.code == .typeMismatch && foreign.key == "listeners")
        #expect(album.listeners.count == 2)
    }

    @Test func aToOneOrderedAttributeOrUnknownKeyIsATypedError() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let toOne = try #require(throws: PersistenceError.self) { try album.mutableSetValue(forKey: "label") }
        #expect(toOne.code == .typeMismatch && toOne.key == "label" && toOne.message.contains("to-one"))
        let ordered = try #require(throws: PersistenceError.self) { try album.mutableSetValue(forKey: "tracks") }
        #expect(ordered.code == .typeMismatch && ordered.message.contains("mutableOrderedSetValue"))
        let attribute = try #require(throws: PersistenceError.self) { try album.mutableSetValue(forKey: "title") }
        #expect(attribute.code == .typeMismatch && attribute.message.contains("attribute"))
        let unknown = try #require(throws: PersistenceError.self) { try album.mutableSetValue(forKey: "fans") }
        #expect(unknown.code == .unknownKey && unknown.key == "fans")
        let unordered = try #require(throws: PersistenceError.self) {
            try album.mutableOrderedSetValue(forKey: "listeners")
        }
        #expect(unordered.code == .typeMismatch && unordered.message.contains("mutableSetValue"))
    }

    @Test func aDetachedObjectsProxyRefusesChanges() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let entity = try #require(EverydayModels.music.entity(named: "Album"))
        let detached = Album(entity: entity, insertInto: nil)
        let listener = try #require(album.listeners.first)
        let error = try #require(throws: PersistenceError.self) {
            try detached.mutableSetValue(forKey: "listeners").add(listener)
        }
        #expect(error.code == .typeMismatch && error.key == "listeners")
    }

    // MARK: - Ordered

    @Test func orderedProxyAppendsInsertsMovesAndRemoves() throws {
        let (_, context, album) = try makeAlbum()
        let tracks = try album.mutableOrderedSetValue(forKey: "tracks")
        let d = Track(context: context)
        d.title = "D"
        try tracks.append(d)
        #expect(album.tracks.map(\.title) == ["A", "B", "C", "D"] && d.album === album)
        let intro = Track(context: context)
        intro.title = "Intro"
        try tracks.insert(intro, at: 0)
        #expect(tracks.array.compactMap { ($0 as? Track)?.title } == ["Intro", "A", "B", "C", "D"])
        try tracks.insert(d, at: 0)  // already there: nothing changes
        #expect(tracks.count == 5 && tracks.index(of: d) == 4)
        try tracks.move(from: 4, to: 1)
        #expect(album.tracks.map(\.title) == ["Intro", "D", "A", "B", "C"])
        let removed = try tracks.remove(at: 0)
        #expect(removed === intro && intro.album == nil)
        try tracks.remove(d)
        #expect(album.tracks.map(\.title) == ["A", "B", "C"] && d.album == nil)
        #expect(tracks.compactMap { ($0 as? Track)?.title } == ["A", "B", "C"])
    }

    @Test func orderedProxyChangesSaveAndUndo() throws {
        let (container, context, album) = try makeAlbum()
        let undo = ContextUndoManager()
        context.undoManager = undo
        try album.mutableOrderedSetValue(forKey: "tracks").move(from: 2, to: 0)
        context.processPendingChanges()
        undo.undo()
        #expect(album.tracks.map(\.title) == ["A", "B", "C"])
        undo.redo()
        try context.save()
        let other = container.newContext()
        let saved = try #require(try other.fetch(Album.fetchRequest()).first)
        #expect(saved.tracks.map(\.title) == ["C", "A", "B"])
    }

    @Test func orderedIndexesOutOfRangeAreTypedErrors() throws {
        let (_, context, album) = try makeAlbum()
        let tracks = try album.mutableOrderedSetValue(forKey: "tracks")
        let extra = Track(context: context)
        let insert = try #require(throws: PersistenceError.self) { try tracks.insert(extra, at: 4) }
        #expect(insert.code == .outOfRange && insert.key == "tracks" && insert.entityName == "Album")
        let remove = try #require(throws: PersistenceError.self) { try tracks.remove(at: 3) }
        #expect(remove.code == .outOfRange)
        let move = try #require(throws: PersistenceError.self) { try tracks.move(from: 0, to: -1) }
        #expect(move.code == .outOfRange)
        #expect(album.tracks.map(\.title) == ["A", "B", "C"] && extra.album == nil)
    }

    /// `makeAlbum()` plus a saved listener "Carl" of no album.
    private func makeAlbumWithStranger() throws -> (PersistentContainer, ManagedContext, Album) {
        let (container, context, album) = try makeAlbum()
        let carl = Listener(context: context)
        carl.name = "Carl"
        try context.save()
        return (container, context, album)
    }
}
