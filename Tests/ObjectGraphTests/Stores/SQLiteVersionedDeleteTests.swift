import Foundation
import Testing

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A SQLite store deletes a row only at the version its container read, as it updates one: a
/// row another process changed or deleted meanwhile fails the save with `conflict`, naming the
/// object, and nothing of the save is written.
@Suite(.serialized) struct SQLiteVersionedDeleteTests {
    let model = try! ManagedObjectModel(Entry.self, Tally.self)

    @Test func deletingARowAnotherProcessUpdatedIsAConflictAndWritesNothing() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("shared.sqlite")
        let writer = try SQLiteWriterProcess(url: url)
        defer { writer.stop() }
        let first = writer.waitForSave(after: 2)
        #expect(first > 2)

        // This process reads the tally, then the writer updates it (every save does).
        let store = SQLiteStore(url: url)
        let read = try store.load(model: model)
        var tally: StoreRecord?
        read.forEachRecord(ofEntity: "Tally") { tally = $0 }
        let stale = try #require(tally)
        var entry: StoreRecord?
        read.forEachRecord(ofEntity: "Entry") { if entry == nil { entry = $0 } }
        let untouched = try #require(entry)
        // The tally counts the saves this process read; the writer's next acknowledged save
        // updated it after that read (the pipe may lag behind the saves).
        guard case .int(let seen) = stale.values[0] else {
            Issue.record("the tally holds no count")
            return
        }
        #expect(writer.waitForSave(after: seen) > seen)
        writer.stop()

        var changes = StoreChangeSet(
            inserted: [], updated: [], deleted: [untouched.objectID, stale.objectID], snapshot: read)
        changes.previous = read
        let error = #expect(throws: PersistenceError.self) { try store.save(changes) }
        #expect(error?.code == .conflict)
        #expect(error?.objectID == stale.objectID)
        #expect(error?.fileURL == url)
        #expect(error?.message.contains("not \(stale.version)") == true, "\(error?.message ?? "")")
        store.close()

        let check = try SQLiteStore(url: url).load(model: model)
        #expect(check.record(for: untouched.objectID) == untouched, "the save's other delete was rolled back")
        #expect((check.record(for: stale.objectID)?.version ?? 0) > stale.version)
    }

    @Test func deletingARowAnotherContainerDeletedIsAConflict() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("shared.sqlite")
        do {
            let context = try PersistentContainer(model: model, storeDescription: .sqliteFile(url)).newContext()
            for number in 1...2 { Entry(context: context).number = Int64(number) }
            try context.save()
        }
        let mine = SQLiteStore(url: url)
        let theirs = SQLiteStore(url: url)
        let read = try mine.load(model: model)
        let other = try theirs.load(model: model)
        let first = ObjectID(entityName: "Entry", key: 1)
        var gone = StoreChangeSet(inserted: [], updated: [], deleted: [first], snapshot: other)
        gone.previous = other
        try theirs.save(gone)

        var changes = StoreChangeSet(inserted: [], updated: [], deleted: [first], snapshot: read)
        changes.previous = read
        let error = #expect(throws: PersistenceError.self) { try mine.save(changes) }
        #expect(error?.code == .conflict)
        #expect(error?.objectID == first)
        #expect(error?.message.contains("was deleted from the store") == true)
    }
}
