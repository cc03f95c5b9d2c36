import Foundation
import ObjectGraph
import Testing

@Suite struct KeyPathValueTests {
    // MARK: - Through to-one relationships

    @Test func aSingleKeyReadsLikeValueForKey() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        #expect(try album.value(forKeyPath: "title") as? String == "Blue")
        #expect(try album.tracks[0].value(forKeyPath: "seconds") as? Int64 == 100)
    }

    @Test func dottedKeysFollowToOneRelationships() throws {
        let (_, context, album) = try makeAlbum()
        let label = RecordLabel(context: context)
        label.name = "Indie"
        album.label = label
        let track = album.tracks[0]
        #expect(try track.value(forKeyPath: "album.title") as? String == "Blue")
        #expect(try track.value(forKeyPath: "album.label.name") as? String == "Indie")
        #expect(try track.value(forKeyPath: "album.label") as? RecordLabel === label)
    }

    @Test func aMissingToOneDestinationGivesNil() throws {
        let (_, context, _) = try makeAlbum()
        let loose = Track(context: context)
        #expect(try loose.value(forKeyPath: "album.title") == nil)
        #expect(try loose.value(forKeyPath: "album.label.name") == nil)
    }

    // MARK: - Through to-many relationships

    @Test func anUnorderedToManyGivesTheSetOfValues() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let names = try album.value(forKeyPath: "listeners.name")
        #expect(names as? Set<String> == ["Ann", "Bob"])
        #expect((names as? Set<AnyHashable>)?.count == 2)
    }

    @Test func anOrderedToManyGivesTheValuesInOrder() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        #expect(try album.value(forKeyPath: "tracks.title") as? [String] == ["A", "B", "C"])
        album.tracks[1].rating = 4.5
        // nil values are left out.
        #expect(try album.value(forKeyPath: "tracks.rating") as? [Double] == [4.5])
    }

    @Test func equalValuesCollapseInAnUnorderedResult() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        for listener in album.listeners { listener.name = "Same" }
        #expect(try album.value(forKeyPath: "listeners.name") as? Set<String> == ["Same"])
    }

    @Test func aPathGoesOnThroughToOneFromEachRelatedObject() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let listener = try #require(album.listeners.first)
        #expect(try listener.value(forKeyPath: "albums.title") as? Set<String> == ["Blue"])
        #expect(try album.tracks[0].value(forKeyPath: "album.tracks.title") as? [String] == ["A", "B", "C"])
    }

    // MARK: - Collection operators

    @Test func countCountsTheRelatedObjects() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        #expect(try album.value(forKeyPath: "tracks.@count") as? Int == 3)
        #expect(try album.value(forKeyPath: "listeners.@count") as? Int == 2)
        #expect(try album.tracks[0].value(forKeyPath: "album.tracks.@count") as? Int == 3)
    }

    @Test func sumAndAverageOfIntegers() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        #expect(try album.value(forKeyPath: "tracks.@sum.seconds") as? Int64 == 600)
        #expect(try album.value(forKeyPath: "tracks.@avg.seconds") as? Double == 200)
    }

    @Test func sumAndAverageOfDoublesLeaveOutNil() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        album.tracks[0].rating = 3
        album.tracks[2].rating = 4
        #expect(try album.value(forKeyPath: "tracks.@sum.rating") as? Double == 7)
        #expect(try album.value(forKeyPath: "tracks.@avg.rating") as? Double == 3.5)
    }

    @Test func sumAndAverageOfDecimalsStayDecimal() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        album.tracks[0].price = Decimal(string: "0.10")!
        album.tracks[1].price = Decimal(string: "0.20")!
        #expect(try album.value(forKeyPath: "tracks.@sum.price") as? Decimal == Decimal(string: "0.30"))
        #expect(try album.value(forKeyPath: "tracks.@avg.price") as? Decimal == Decimal(string: "0.10"))
    }

    @Test func operatorsOverNoObjects() throws {
        let (_, context, _) = try makeAlbum()
        let empty = Album(context: context)
        #expect(try empty.value(forKeyPath: "tracks.@count") as? Int == 0)
        #expect(try empty.value(forKeyPath: "tracks.@sum.seconds") as? Int64 == 0)
        #expect(try empty.value(forKeyPath: "tracks.@avg.seconds") == nil)
        #expect(try empty.value(forKeyPath: "tracks.@min.seconds") == nil)
    }

    @Test func minAndMaxOfNumbersStringsAndDates() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        #expect(try album.value(forKeyPath: "tracks.@min.seconds") as? Int64 == 100)
        #expect(try album.value(forKeyPath: "tracks.@max.seconds") as? Int64 == 300)
        #expect(try album.value(forKeyPath: "listeners.@min.name") as? String == "Ann")
        #expect(try album.value(forKeyPath: "listeners.@max.name") as? String == "Bob")
        album.tracks[1].released = Date(timeIntervalSinceReferenceDate: 50)
        #expect(
            try album.value(forKeyPath: "tracks.@max.released") as? Date == Date(timeIntervalSinceReferenceDate: 50))
    }

    @Test func unionsOfObjectsKeepOrDropDuplicates() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        album.tracks[2].seconds = 100
        #expect(try album.value(forKeyPath: "tracks.@unionOfObjects.seconds") as? [Int64] == [100, 200, 100])
        #expect(try album.value(forKeyPath: "tracks.@distinctUnionOfObjects.seconds") as? [Int64] == [100, 200])
    }

    // MARK: - Errors

    @Test func anUnknownKeyIsATypedError() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let error = try #require(throws: PersistenceError.self) { try album.value(forKeyPath: "tracks.length") }
        #expect(error.code == .unknownKey && error.entityName == "Track" && error.key == "length")
        let first = try #require(throws: PersistenceError.self) { try album.value(forKeyPath: "name.count") }
        #expect(first.code == .unknownKey && first.entityName == "Album" && first.key == "name")
    }

    @Test func wrongKeysAreErrorsWhateverTheData() throws {
        let (_, context, _) = try makeAlbum()
        let loose = Track(context: context)
        let empty = Album(context: context)
        for (object, path) in [
            (loose, "album.nope"), (loose, "album.tracks.nope"), (empty, "tracks.nope"), (empty, "tracks.@sum.nope"),
            (empty, "label.@count"), (loose, "album.tracks.@median.seconds"),
        ] as [(ManagedObject, String)] {
            let error = try #require(throws: PersistenceError.self, "\(path)") { try object.value(forKeyPath: path) }
            #expect(error.code == .unknownKey, "\(path)")
        }
    }

    @Test func aKeyAfterAnAttributeIsATypedError() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let error = try #require(throws: PersistenceError.self) { try album.value(forKeyPath: "title.count") }
        #expect(error.code == .unknownKey && error.key == "title.count" && error.entityName == "Album")
        #expect(error.message.contains("after the attribute 'title'"))
    }

    @Test func misplacedOrUnknownOperatorsAreTypedErrors() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        for path in ["@count", "label.@count", "tracks.@median.seconds", "tracks.@sum", "tracks.@count.seconds"] {
            let error = try #require(throws: PersistenceError.self) { try album.value(forKeyPath: path) }
            #expect(error.code == .unknownKey && error.key == path, "\(path)")
        }
    }

    @Test func anOperatorOverValuesItCannotCombineIsATypedError() throws {
        let scene = try makeAlbum()  // keeps the context alive
        let album = scene.album
        let error = try #require(throws: PersistenceError.self) { try album.value(forKeyPath: "tracks.@sum.title") }
        #expect(error.code == .unknownKey && error.key == "tracks.@sum.title")
        #expect(error.message.contains("String"))
    }
}
