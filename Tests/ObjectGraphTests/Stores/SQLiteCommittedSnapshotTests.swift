import Foundation
import Testing

@testable import ObjectGraph

/// A container's committed snapshot on a SQLite store reads every row, and says so when it
/// cannot.
@Suite struct SQLiteCommittedSnapshotTests {
    @Test func theCommittedSnapshotHoldsRowsTheContainerNeverRead() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        do {
            let context = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url)).newContext()
            for index in 0..<5 { makeFruit(context, "fruit \(index)") }
            try context.save()
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: SQLiteStore(url: url))
        #expect(container.coordinator.snapshot().count == 0)
        #expect(try container.readCommittedSnapshot().count == 5)
        #expect(container.committedSnapshot().count == 5)
    }

    @Test func readingTheCommittedSnapshotOfAStoreThatCannotBeReadThrows() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.sqlite")
        let store = SQLiteStore(url: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        for index in 0..<5 { makeFruit(context, "fruit \(index)") }
        try context.save()
        store.close()
        let error = #expect(throws: PersistenceError.self) { try container.readCommittedSnapshot() }
        #expect(error?.code == .storeClosed)
        #expect(error?.fileURL == url)
        // The best-effort form gives the rows the container holds (here, those it saved).
        #expect(container.committedSnapshot().count == 5)
    }
}
