import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another process (Sources/CrashWriter, in `sqlite` mode) saves to the file this process has
/// open: each save shows on this process's next fetch, is merged into contexts that merge
/// automatically, and neither process hands out a key the other uses.
@Suite(.serialized) struct SQLiteMultiProcessTests {
    let model = try! ManagedObjectModel(Entry.self, Tally.self)

    @Test func anotherProcessSavesAndThisContainerSeesItOnItsNextFetch() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("shared.sqlite")
        let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(url))
        let context = container.newContext()
        context.automaticallyMergesChanges = true
        #expect(try context.count(for: Entry.fetchRequest()) == 0)

        let writer = try SQLiteWriterProcess(url: url)
        defer { writer.stop() }
        let acknowledged = writer.waitForSave(after: 19)
        #expect(acknowledged >= 20, "the writer saved \(acknowledged) times")

        // This process's next fetch sees every save the writer reported, and a registered object
        // is merged.
        let numbers = try context.fetch(Entry.fetchRequest()).map(\.number)
        #expect(numbers.count >= Int(acknowledged))
        #expect(numbers == Array(1...Int64(numbers.count)))
        let tally = try #require(try context.fetch(Tally.fetchRequest()).first)
        #expect(tally.count >= acknowledged)
        let seen = tally.count
        usleep(100_000)
        _ = try context.count(for: Entry.fetchRequest())
        #expect(tally.count > seen, "the registered tally was merged on the next fetch")

        // This process inserts while the writer does: no key is handed out twice.
        let mine = (0..<50).map { index in
            let entry = Entry(context: context)
            entry.number = -Int64(index) - 1
            return entry
        }
        try context.save()
        writer.stop()

        let check = try PersistentContainer(model: model, storeDescription: .sqliteFile(url)).newContext()
        let entries = try check.fetch(Entry.fetchRequest())
        let keys = entries.map(\.objectID.key)
        #expect(Set(keys).count == keys.count)
        #expect(Set(mine.map(\.objectID)).isSubset(of: Set(entries.map(\.objectID))))
        let written = entries.map(\.number).filter { $0 > 0 }.sorted()
        #expect(written == Array(1...Int64(written.count)))
    }
}
