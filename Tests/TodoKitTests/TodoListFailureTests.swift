import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing
import TodoKit

// Error paths, driven by store doubles instead of a broken disk: a FaultInjectingStore fails the
// save or load a test chooses, and a RecordingStore shows exactly what a change persisted.

@Suite struct TodoListFailureTests {
    let store = FaultInjectingStore()
    let container: PersistentContainer
    let list: TodoList

    /// Two saved items, "Buy milk" (with a detail) and "Call Ann"; the next save is number 3.
    init() throws {
        container = try PersistentContainer.forTesting(model: try TodoItem.makeModel(), store: store)
        list = TodoList(context: container.newContext())
        try list.add(title: "Buy milk", detail: "2 litres")
        try list.add(title: "Call Ann")
    }

    /// What the list and the store hold after `init`, checked after every failed save.
    func expectListAndStoreAsSeeded() throws {
        #expect(try list.items.map(\.title) == ["Buy milk", "Call Ann"])
        #expect(try list.items.map(\.isDone) == [false, false])
        try list.context.expectNoUnsavedChanges()
        try container.expectStore(
            holds: "TodoItem",
            [["title": "Buy milk", "detail": "2 litres", "isDone": false], ["title": "Call Ann", "isDone": false]])
        #expect(try TodoList(container: container).items.count == 2)
    }

    // MARK: - A failed save leaves the list and the store as they were

    @Test func failedAddKeepsNothing() throws {
        store.failNextSave(with: FaultInjectingStore.Fault.diskFull)
        let error = #expect(throws: TodoError.self) { try list.add(title: "Water the fern") }
        guard case .saveFailed(let underlying) = error else { throw Unexpected(error) }
        #expect(underlying as? FaultInjectingStore.Fault == .diskFull)
        #expect(error?.description.contains("no space left") == true)
        try expectListAndStoreAsSeeded()
        #expect(store.failedSaves == 1)
    }

    @Test func failedMarkDoneKeepsTheItemNotDone() throws {
        let item = try list.item(number: 2)
        store.failNextSave(with: FaultInjectingStore.Fault.ioFailure)
        let error = #expect(throws: TodoError.self) { try list.markDone(number: 2) }
        #expect(error?.underlying as? FaultInjectingStore.Fault == .ioFailure)
        #expect(!item.isDone && !item.hasChanges)
        try expectListAndStoreAsSeeded()
    }

    @Test func failedRemoveKeepsTheItem() throws {
        let item = try list.item(number: 1)
        store.failNextSave()
        let error = #expect(throws: TodoError.self) { try list.remove(number: 1) }
        #expect(error?.underlying as? FaultInjectingStore.Fault == .diskFull)
        #expect(!item.isDeleted)
        try expectListAndStoreAsSeeded()
    }

    @Test func theListWorksAgainOnceTheStoreDoes() throws {
        store.failEverySave()
        for _ in 0..<3 { #expect(throws: TodoError.self) { try list.add(title: "Water the fern") } }
        try expectListAndStoreAsSeeded()
        store.clearFaults()
        try list.add(title: "Water the fern")
        #expect(try list.items.map(\.title) == ["Buy milk", "Call Ann", "Water the fern"])
        #expect(store.saveAttempts == 6 && store.failedSaves == 3)
    }

    @Test func twoItemsCannotShareAnId() throws {
        let context = container.newContext()
        let copy = TodoItem(context: context)
        copy.title = "Copy"
        copy.id = try list.item(number: 1).id
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .conflict)
        try expectListAndStoreAsSeeded()
    }

    // MARK: - A failed load

    @Test func failedLoadIsReported() throws {
        let store = FaultInjectingStore()
        store.failLoad(with: FaultInjectingStore.Fault.corruptFile)
        let error = #expect(throws: TodoError.self) { try TodoList.open(store: store) }
        guard case .loadFailed(let underlying) = error else { throw Unexpected(error) }
        #expect(underlying as? FaultInjectingStore.Fault == .corruptFile)
        #expect(error?.description == "the list could not be read (simulated: the store file is damaged)")
        store.clearFaults()
        #expect(try TodoList.open(store: store).items.isEmpty)
    }

    // MARK: - What a change persisted

    @Test func markDoneWritesExactlyThatItemsDoneFlag() throws {
        let store = RecordingStore()
        let list = TodoList(container: try .forTesting(model: try TodoItem.makeModel(), store: store))
        try list.add(title: "Buy milk")
        let item = try list.add(title: "Call Ann", detail: "about Sunday")
        store.clear()

        try list.markDone(number: 2)

        #expect(store.changeSets.count == 1)
        #expect(store.insertedObjectIDs.isEmpty && store.deletedObjectIDs.isEmpty)
        #expect(store.updatedObjectIDs == [item.objectID])
        let record = try #require(store.changeSets.first?.updated.first)
        let slots = try TodoItem.makeModel().entity(named: "TodoItem")!.attributes.map(\.name)
        let values = Dictionary(uniqueKeysWithValues: zip(slots, record.values))
        #expect(values["isDone"] == .bool(true))
        #expect(values["title"] == .string("Call Ann") && values["detail"] == .string("about Sunday"))
        #expect(values["id"] == .uuid(item.id))
        #expect(record.version == 2)
    }
}

/// A test failure for an error of the wrong kind.
struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ error: (any Error)?) { description = "unexpected error: \(String(describing: error))" }
}
