import Foundation
import ObjectGraph

/// An album with ordered tracks and unordered listeners, for key paths and mutable proxies.
final class Album: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "album", deleteRule: .cascade) var tracks: [Track]
    @Relationship(inverse: "albums") var listeners: Set<Listener>
    @Relationship(inverse: "albums") var label: RecordLabel?
}

final class Track: ManagedObject {
    @Attribute var title = ""
    @Attribute var seconds: Int64 = 0
    @Attribute var rating: Double?
    @Attribute var price = Decimal(0)
    @Attribute var released = Date(timeIntervalSinceReferenceDate: 0)
    @Relationship(inverse: "tracks") var album: Album?

    var preparations: [String] = []

    override func prepareForDeletion() {
        preparations.append("\(title): album \(album?.title ?? "none"), deleted \(isDeleted)")
    }
}

final class Listener: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "listeners") var albums: Set<Album>
}

final class RecordLabel: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "label") var albums: Set<Album>

    var preparations = 0
    override func prepareForDeletion() {
        preparations += 1
        // Custom propagation before the relationships are torn down: retitle the albums.
        for album in albums { album.title += " (label gone)" }
    }
}

enum EverydayModels {
    static let music = try! ManagedObjectModel(Album.self, Track.self, Listener.self, RecordLabel.self)
}

/// A container on a fresh in-memory store of the music model, with one context, an album of
/// three tracks (A 100 s, B 200 s, C 300 s) and two listeners, saved. Keep the context alive
/// while using the album (objects do not retain their context).
func makeAlbum() throws -> (container: PersistentContainer, context: ManagedContext, album: Album) {
    let container = try PersistentContainer(model: EverydayModels.music, storeDescription: .inMemory)
    let context = container.newContext()
    let album = Album(context: context)
    album.title = "Blue"
    for (title, seconds) in [("A", 100), ("B", 200), ("C", 300)] {
        let track = Track(context: context)
        track.title = title
        track.seconds = Int64(seconds)
        track.album = album
    }
    for name in ["Ann", "Bob"] {
        let listener = Listener(context: context)
        listener.name = name
        listener.albums.insert(album)
    }
    try context.save()
    return (container, context, album)
}
