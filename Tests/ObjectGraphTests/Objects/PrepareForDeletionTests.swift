import Foundation
import ObjectGraph
import Testing

@Suite struct PrepareForDeletionTests {
    // MARK: - When it runs

    @Test func deleteCallsPrepareForDeletionBeforeTheDeleteRules() throws {
        let (_, context, album) = try makeAlbum()
        let track = album.tracks[0]
        context.delete(track)
        // It saw its relationship still set (nullify had not run yet) and itself deleted.
        #expect(track.preparations == ["A: album Blue, deleted true"])
        #expect(album.tracks.map(\.title) == ["B", "C"])
    }

    @Test func cascadedDeletesCallPrepareForDeletionOnEachDestination() throws {
        let (_, context, album) = try makeAlbum()
        let tracks = album.tracks
        context.delete(album)
        // The cascade unlinks each track from the album before deleting it.
        #expect(
            tracks.map(\.preparations) == [
                ["A: album none, deleted true"], ["B: album none, deleted true"], ["C: album none, deleted true"],
            ])
        #expect(tracks.allSatisfy { $0.isDeleted })
    }

    @Test func deletingAnUnsavedInsertCallsPrepareForDeletion() throws {
        let (_, context, _) = try makeAlbum()
        let track = Track(context: context)
        track.title = "new"
        context.delete(track)
        #expect(track.preparations == ["new: album none, deleted true"])
    }

    @Test func deletingTwiceCallsItOnce() throws {
        let (_, context, album) = try makeAlbum()
        let track = album.tracks[0]
        context.delete(track)
        context.delete(track)
        #expect(track.preparations.count == 1)
    }

    // MARK: - What it may change

    @Test func changesMadeInPrepareForDeletionAreTrackedAndSaved() throws {
        let (container, context, album) = try makeAlbum()
        let label = RecordLabel(context: context)
        label.name = "Indie"
        album.label = label
        try context.save()
        context.delete(label)
        #expect(label.preparations == 1)
        #expect(album.title == "Blue (label gone)" && album.isUpdated && album.label == nil)
        try context.save()
        let other = container.newContext()
        let saved = try other.fetch(Album.fetchRequest())
        #expect(saved.map(\.title) == ["Blue (label gone)"])
    }

    @Test func undoingTheDeleteUndoesWhatPrepareForDeletionChanged() throws {
        let (_, context, album) = try makeAlbum()
        let label = RecordLabel(context: context)
        album.label = label
        try context.save()
        let undo = ContextUndoManager()
        context.undoManager = undo
        context.delete(label)
        context.processPendingChanges()
        undo.undo()
        #expect(album.title == "Blue" && album.label === label && !label.isDeleted)
    }

    // MARK: - When it does not run

    @Test func batchDeletesDoNotCallPrepareForDeletion() throws {
        let (_, context, album) = try makeAlbum()
        let tracks = album.tracks
        _ = try context.execute(BatchDeleteRequest(entityName: "Track"))
        #expect(tracks.allSatisfy { $0.preparations.isEmpty })
    }

    @Test func mergingAnotherContextsDeleteDoesNotCallPrepareForDeletion() throws {
        let (container, context, album) = try makeAlbum()
        let track = album.tracks[0]
        let other = container.newContext()
        let copy = try #require(try other.existingObject(with: track.objectID) as? Track)
        other.delete(copy)
        try other.save()
        context.refresh(track, mergeChanges: false)
        #expect(track.isDeleted && track.preparations.isEmpty)
        #expect(copy.preparations.count == 1)
    }
}
